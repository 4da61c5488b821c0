// The request's warnings; those that need it carry an "I understand" tick the primary button waits for.
import type { ApprovalView } from '@/lib/dapp/approval';

export type Warning = ApprovalView['warnings'][number];

export function warningsOf(view: ApprovalView): Warning[] {
  return [...view.warnings, ...('warnings' in view.detail ? view.detail.warnings : [])];
}

export function Warnings({
  warnings,
  ticked,
  onTick,
}: {
  warnings: readonly Warning[];
  ticked: readonly string[];
  onTick: (next: string[]) => void;
}) {
  return (
    <>
      {warnings.map((warning) => (
        <div key={warning.code} role="alert" class="warning">
          <p>{warning.message}</p>
          {warning.tick ? (
            <label class="tick">
              <input
                type="checkbox"
                checked={ticked.includes(warning.code)}
                onChange={(event) =>
                  onTick(
                    event.currentTarget.checked
                      ? [...ticked, warning.code]
                      : ticked.filter((code) => code !== warning.code),
                  )
                }
              />
              I understand
            </label>
          ) : null}
        </div>
      ))}
    </>
  );
}
