// "First interaction": Swaplane's sealed record of who an account sent to, and what the window says.
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createRecipientRecord, recipientHistory } from '@/lib/background/dapp-recipients';
import { sentToItem } from '@/lib/storage/items';
import { ACCOUNT, useDappHarness } from '../support/dapp-harness';

const h = useDappHarness();
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

describe('the recipient line', () => {
  it('a nonce of 0 is a certain first interaction; a record says sent before; else none recorded', () => {
    expect(recipientHistory(0, false)).toBe('never-sent');
    expect(recipientHistory(7, false)).toBe('not-recorded');
    expect(recipientHistory(7, true)).toBe('sent-before');
  });
});

describe("Swaplane's record of recipients", () => {
  const record = () => createRecipientRecord(() => h.wallet.trustKey());

  it('records a send per account and chain, sealed', async () => {
    const recipients = record();
    expect(await recipients.has(1, ACCOUNT, TO)).toBe(false);
    await recipients.add(1, ACCOUNT, TO);
    expect(await recipients.has(1, ACCOUNT, TO.toLowerCase())).toBe(true);
    expect(await recipients.has(8453, ACCOUNT, TO)).toBe(false);
    expect(await recipients.has(1, ACCOUNT, OTHER)).toBe(false);
    const [stored] = await sentToItem.get();
    expect(stored?.seal).toMatch(/.{20,}/);
  });

  it('does not believe a record written from outside, and never seals what was forged', async () => {
    const recipients = record();
    await recipients.add(1, ACCOUNT, TO);
    const [stored] = await sentToItem.get();
    if (!stored) throw new Error('nothing recorded');
    // A page (or anything with storage.local) adds an address to the record.
    await sentToItem.set([{ ...stored, recipients: [...stored.recipients, OTHER.toLowerCase()] }]);
    expect(await recipients.has(1, ACCOUNT, OTHER)).toBe(false);
    expect(await recipients.has(1, ACCOUNT, TO)).toBe(false);
    // The next send starts the record over rather than sealing the forged entry.
    const third = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    await recipients.add(1, ACCOUNT, third);
    expect(await recipients.has(1, ACCOUNT, third)).toBe(true);
    expect(await recipients.has(1, ACCOUNT, OTHER)).toBe(false);
  });

  it('while locked nothing is believed or recorded', async () => {
    const recipients = record();
    await recipients.add(1, ACCOUNT, TO);
    await h.wallet.lock();
    expect(await recipients.has(1, ACCOUNT, TO)).toBe(false);
    await recipients.add(1, ACCOUNT, OTHER);
    expect((await fakeBrowser.storage.local.get('sentTo')).sentTo).toMatchObject({
      data: [{ recipients: [TO.toLowerCase()] }],
    });
  });
});
