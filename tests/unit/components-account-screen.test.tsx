// @vitest-environment happy-dom
// The account screen against the real background (services + protocol handlers, fake browser
// storage, few KDF iterations): rename, import a private key, reveal behind the password.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { AccountScreen } from '@/entrypoints/popup/AccountScreen';
import { createHandlers, handleMessage } from '@/lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '@/lib/background/services';
import { callBackground } from '@/lib/messaging/client';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { settingsItem } from '@/lib/storage/items';
import type { WalletState } from '@/lib/wallet/state';

const ANVIL = 'test test test test test test test test test test test junk';
const PASSWORD = 'correct horse battery';
// anvil's second well-known account.
const KEY_2 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS_2 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let services: BackgroundServices;

beforeEach(async () => {
  fakeBrowser.reset();
  await settingsItem.set(DEFAULT_SETTINGS);
  services = createBackgroundServices({ kdf: { iterations: 1_000, minIterations: 1_000 } });
  await services.ready;
  const handlers = createHandlers(services);
  fakeBrowser.runtime.onMessage.addListener(
    (message: unknown, _sender: unknown, sendResponse: (answer: unknown) => void) => {
      handleMessage(handlers, services, message, 'view').then(sendResponse);
      return true;
    },
  );
  await callBackground({
    type: 'walletImport',
    kind: 'mnemonic',
    secret: ANVIL,
    password: PASSWORD,
    confirmation: PASSWORD,
  });
});

afterEach(cleanup);

function Harness({ initial }: { initial: WalletState }) {
  const [wallet, setWallet] = useState(initial);
  const [open, setOpen] = useState(true);
  const active = wallet.accounts.find((account) => account.id === wallet.activeId);
  return (
    <>
      <p data-testid="active">
        {active?.name} {active?.address}
      </p>
      <button type="button" onClick={() => setOpen(true)}>
        Open accounts
      </button>
      {open && <AccountScreen wallet={wallet} onChange={setWallet} onClose={() => setOpen(false)} />}
    </>
  );
}

async function setup() {
  render(<Harness initial={await callBackground({ type: 'walletState' })} />);
}

const submit = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

describe('AccountScreen: rename', () => {
  it('renames the active account in the background', async () => {
    await setup();
    const field = screen.getByLabelText('Account name') as HTMLInputElement;
    expect(field.value).toBe('Account 1');
    expect((screen.getByRole('button', { name: 'Save name' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.input(field, { target: { value: '  Savings ' } });
    submit('Save name');
    await screen.findByText('Renamed to “Savings”.');
    expect(screen.getByTestId('active').textContent).toContain('Savings');
    const state = await callBackground({ type: 'walletState' });
    expect(state.accounts[0]?.name).toBe('Savings');
  });

  it('refuses an empty name inline without asking the background', async () => {
    await setup();
    const field = screen.getByLabelText('Account name');
    fireEvent.input(field, { target: { value: '   ' } });
    submit('Save name');
    expect(screen.getByRole('alert').textContent).toBe('Enter a name for this account.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe('rename-error');
    expect((await callBackground({ type: 'walletState' })).accounts[0]?.name).toBe('Account 1');
  });

  it('caps the name at the protocol limit', async () => {
    await setup();
    expect(screen.getByLabelText('Account name').getAttribute('maxlength')).toBe('40');
  });
});

describe('AccountScreen: import a private key', () => {
  it('imports the key as a new, active account and clears the field', async () => {
    await setup();
    const field = screen.getByLabelText('Private key (64 hex characters)') as HTMLTextAreaElement;
    fireEvent.input(field, { target: { value: KEY_2 } });
    fireEvent.input(screen.getByLabelText('Name (optional)'), { target: { value: 'Hot wallet' } });
    submit('Import key');
    await screen.findByText('Imported “Hot wallet”; it is now the active account.');
    expect(field.value).toBe('');
    expect(screen.getByTestId('active').textContent).toBe(`Hot wallet ${ADDRESS_2}`);
  });

  it('shows why a key is refused, and refuses a duplicate', async () => {
    await setup();
    const field = screen.getByLabelText('Private key (64 hex characters)');
    fireEvent.input(field, { target: { value: '0x1234' } });
    submit('Import key');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/64 hex/i);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect((await callBackground({ type: 'walletState' })).accounts).toHaveLength(1);

    fireEvent.input(field, { target: { value: KEY_2 } });
    submit('Import key');
    await screen.findByText(/it is now the active account/);
    fireEvent.input(field, { target: { value: KEY_2 } });
    submit('Import key');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('already in the wallet'));
  });
});

describe('AccountScreen: reveal', () => {
  it('refuses a wrong password and reveals nothing', async () => {
    await setup();
    expect(screen.getByText(/can take everything/)).toBeTruthy();
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    fireEvent.input(password, { target: { value: 'not my password' } });
    submit('Reveal');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Wrong password'));
    expect(password.value).toBe('');
    expect(screen.queryByTestId('revealed')).toBeNull();
    expect(document.body.textContent).not.toContain('junk');
  });

  it('reveals the phrase hidden by default, shows it on request, and forgets it', async () => {
    await setup();
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    submit('Reveal');
    await screen.findByTestId('secret-hidden');
    expect(document.body.textContent).not.toContain('junk');
    const show = screen.getByRole('button', { name: 'Show' });
    expect(show.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(show);
    expect(screen.getByTestId('revealed-secret').textContent).toBe(ANVIL);
    expect(screen.getByRole('button', { name: 'Hide' }).getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    submit('Done, forget it');
    expect(screen.queryByTestId('revealed')).toBeNull();
    expect(document.body.textContent).not.toContain('junk');
  });

  it('drops the secret when the screen closes', async () => {
    await setup();
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    submit('Reveal');
    fireEvent.click(await screen.findByRole('button', { name: 'Show' }));
    expect(screen.getByTestId('revealed-secret').textContent).toBe(ANVIL);
    submit('Back to swap');
    expect(document.body.textContent).not.toContain('junk');
    submit('Open accounts');
    expect(screen.queryByTestId('revealed')).toBeNull();
    expect(document.body.textContent).not.toContain('junk');
  });

  it('offers and reveals an imported key; choosing another secret drops the shown one', async () => {
    await setup();
    fireEvent.input(screen.getByLabelText('Private key (64 hex characters)'), { target: { value: KEY_2 } });
    submit('Import key');
    await screen.findByText(/it is now the active account/);
    const target = screen.getByLabelText('What to reveal') as HTMLSelectElement;
    expect([...target.options].map((option) => option.textContent)).toEqual([
      'Recovery phrase',
      'Private key of “Imported 1”',
    ]);
    fireEvent.change(target, { target: { value: 'imported:0x70997970c51812dc3a010c7d01b50e0d17dc79c8' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    submit('Reveal');
    fireEvent.click(await screen.findByRole('button', { name: 'Show' }));
    expect(screen.getByTestId('revealed-secret').textContent).toBe(KEY_2);
    fireEvent.change(target, { target: { value: 'mnemonic' } });
    expect(screen.queryByTestId('revealed')).toBeNull();
  });
});
