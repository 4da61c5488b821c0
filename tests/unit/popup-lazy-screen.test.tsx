// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyScreen } from '../../entrypoints/popup/lazy-screen';

afterEach(cleanup);

const Hello = ({ name }: { name: string }) => <p>Hello {name}</p>;

describe('lazyScreen', () => {
  it('says Loading… until its chunk is in, then renders it with its props (and at once the next time)', async () => {
    let resolve: (component: typeof Hello) => void = () => undefined;
    const Lazy = lazyScreen(() => new Promise<typeof Hello>((done) => (resolve = done)), 'greeting');
    render(<Lazy name="Ada" />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    resolve(Hello);
    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    cleanup();
    render(<Lazy name="Bob" />);
    expect(screen.getByText('Hello Bob')).toBeTruthy();
  });

  it('says which screen failed to load, and Try again loads it anew', async () => {
    let calls = 0;
    const Lazy = lazyScreen(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('chunk gone')) : Promise.resolve(Hello);
    }, 'activity');
    render(<Lazy name="Ada" />);
    expect((await screen.findByRole('alert')).textContent).toContain('could not load the activity screen');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    expect(calls).toBe(2);
  });
});
