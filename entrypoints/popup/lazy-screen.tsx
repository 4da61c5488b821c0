// Screens the unlocked popup's first frame never shows (onboarding, accounts, activity, receive,
// forgot password) load as their own chunks when first shown, so the first frame's module is
// smaller to fetch, compile and evaluate. A chunk that fails to load says so, with Try again.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

type Loader<P> = () => Promise<ComponentType<P>>;

/** A component that renders `loader`'s component once its chunk is in ("Loading…" until then). */
export function lazyScreen<P extends object>(loader: Loader<P>, name: string): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const load = () => {
    pending ??= loader().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        pending = null; // Try again loads anew
        throw error;
      },
    );
    return pending;
  };
  function LazyScreen(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      if (component) return;
      let current = true;
      load().then(
        (found) => current && setComponent(() => found),
        () => current && setFailed(true),
      );
      return () => {
        current = false;
      };
    }, [attempt]);
    if (component) {
      const Screen = component;
      return <Screen {...props} />;
    }
    if (failed)
      return (
        <div class="error" role="alert">
          <p>Swaplane could not load the {name} screen.</p>
          <button
            type="button"
            onClick={() => {
              setFailed(false);
              setAttempt((n) => n + 1);
            }}
          >
            Try again
          </button>
        </div>
      );
    return (
      <p class="muted" role="status">
        Loading…
      </p>
    );
  }
  return LazyScreen;
}
