// @vitest-environment happy-dom
// The approval window's typed data: every domain field that is signed is on screen, read the way a
// person reads it (the app's name and version, the chain by name and ID, the contract, the salt).
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Detail } from '@/entrypoints/approve/Detail';
import { ApprovalDetailSchema } from '@/lib/dapp/approval';

const CONTRACT = '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC';
const SALT = `0x${'ab'.repeat(32)}`;

function typedData(domain: Record<string, unknown>) {
  return ApprovalDetailSchema.parse({
    kind: 'typed-data',
    account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    primaryType: 'Mail',
    domain,
    fields: [{ path: 'contents', type: 'string', value: 'Hello' }],
    permit: null,
    seaport: null,
    warnings: [],
  });
}

/** The definition next to a term in the typed data's list, as a screen reader pairs them. */
function shownFor(term: string): string | null {
  const region = screen.getByRole('region', { name: 'Typed data' });
  const dt = within(region).getByText(term, { selector: 'dt' });
  return dt.nextElementSibling?.textContent ?? null;
}

afterEach(cleanup);

describe('the typed data domain in the approval window', () => {
  it('shows the version and the salt it signs, beside the name, chain and contract', () => {
    render(
      <Detail
        detail={typedData({
          name: 'Ether Mail',
          version: '2',
          chainId: 1,
          verifyingContract: CONTRACT,
          salt: SALT,
        })}
      />,
    );
    expect(shownFor('App')).toBe('Ether Mail');
    expect(shownFor('App version')).toBe('2');
    expect(shownFor('Chain')).toBe('Ethereum (chain ID 1)');
    expect(shownFor('Contract')).toBe(CONTRACT);
    expect(shownFor('Salt')).toBe(SALT);
  });

  it('names only the fields the domain has, and a chain Swaplane does not know by its ID', () => {
    render(<Detail detail={typedData({ version: '1', chainId: 999_999 })} />);
    expect(shownFor('App version')).toBe('1');
    expect(shownFor('Chain')).toBe('Chain ID 999999');
    const region = screen.getByRole('region', { name: 'Typed data' });
    expect(within(region).queryByText('Salt', { selector: 'dt' })).toBeNull();
    expect(within(region).queryByText('App', { selector: 'dt' })).toBeNull();
  });
});
