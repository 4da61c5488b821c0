import { BackgroundError } from '@/lib/messaging/client';

/** One line for a failed background call: the user message with its next step when there is one. */
export function messageOf(error: unknown): string {
  if (error instanceof BackgroundError)
    return error.user ? `${error.user.title}. ${error.user.action}` : error.message;
  return error instanceof Error ? error.message : String(error);
}
