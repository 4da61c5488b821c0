// The devnet's accounts: anvil's well-known test mnemonic. Public test keys, never of any value.
import type { Address, Hex } from 'viem';

export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';

/** Accounts 0..2 of the mnemonic: 10,000 ETH each plus every pooled token; untouched by the deploy. */
export const FUNDED_ACCOUNTS: readonly Address[] = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
];

/**
 * Account 9 deploys everything and is the minter of every devnet token, so accounts 0..2 start
 * at nonce 0. It is unlocked on anvil: send `mint` from it to top up a test account.
 */
export const DEPLOYER: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';
/** Its key (a public anvil test key): the router is deployed with a key, as on any chain. */
export const DEPLOYER_KEY: Hex = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
