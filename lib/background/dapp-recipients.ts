// "First interaction": whether the account ever sent to a transaction's recipient. There is no
// indexer, so Swaplane answers from what it can know for sure:
// - the account's transaction count on the chain: 0 means it never sent anything there at all;
// - its own record of the addresses the account sent a dapp transaction to (lib/state/sent-to.ts),
//   written after each send is broadcast and sealed with the vault's trust key, so a record written
//   from outside (storage.local) is not believed.
// It cannot know sends made before this record existed, from another wallet holding the same key,
// or through Swaplane's swaps (their recipient is the router): "first interaction" then means
// "Swaplane recorded no earlier send", and the window says so.

import { MAX_RECORDED_RECIPIENTS, type SentToRecord } from '@/lib/state/sent-to';
import { sentToItem } from '@/lib/storage/items';
import { canonicalJson, fieldMac } from '@/lib/wallet/trust-mac';

export type RecipientHistory = 'never-sent' | 'not-recorded' | 'sent-before';

/** What the window says of the recipient (pure): a nonce of 0 is certain; the record is Swaplane's. */
export function recipientHistory(nonce: number, recorded: boolean): RecipientHistory {
  if (recorded) return 'sent-before';
  return nonce === 0 ? 'never-sent' : 'not-recorded';
}

export interface RecipientRecord {
  /** Whether a verified record says `account` sent to `to` on `chainId` (false when locked). */
  has(chainId: number, account: string, to: string): Promise<boolean>;
  /** Records a send (needs the trust key: while locked nothing is recorded). */
  add(chainId: number, account: string, to: string): Promise<void>;
}

const sealOf = (key: CryptoKey, record: Omit<SentToRecord, 'seal'>) =>
  fieldMac(key, 'sent-to', JSON.parse(canonicalJson(record)));

export function createRecipientRecord(trustKey: () => Promise<CryptoKey | null>): RecipientRecord {
  const same = (record: SentToRecord, chainId: number, account: string) =>
    record.chainId === chainId && record.account === account.toLowerCase();

  /** The verified recipients of one account and chain; [] for none, a broken seal, or locked. */
  async function verified(records: SentToRecord[], chainId: number, account: string): Promise<string[]> {
    const key = await trustKey();
    const record = records.find((entry) => same(entry, chainId, account));
    if (!key || !record) return [];
    const { seal, ...bare } = record;
    return (await sealOf(key, bare)) === seal ? record.recipients : [];
  }

  let writing: Promise<void> = Promise.resolve();
  return {
    async has(chainId, account, to) {
      const recipients = await verified(await sentToItem.get(), chainId, account);
      return recipients.includes(to.toLowerCase());
    },
    add(chainId, account, to) {
      // One write at a time: two sends in a row must both be recorded.
      writing = writing
        .catch(() => undefined)
        .then(async () => {
          const key = await trustKey();
          if (!key) return;
          const records = await sentToItem.get();
          // A record that does not verify is replaced, never extended (that would seal what was forged).
          const kept = (await verified(records, chainId, account)).filter(
            (address) => address !== to.toLowerCase(),
          );
          const bare = {
            chainId,
            account: account.toLowerCase(),
            recipients: [...kept, to.toLowerCase()].slice(-MAX_RECORDED_RECIPIENTS),
          };
          const others = records.filter((entry) => !same(entry, chainId, account)).slice(-199);
          await sentToItem.set([...others, { ...bare, seal: await sealOf(key, bare) }]);
        });
      return writing.catch(() => undefined);
    },
  };
}
