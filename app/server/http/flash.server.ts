// One-time messages carried across a redirect (e.g. 'User "Ann" created successfully!').
import { getConfig } from '../platform/config.server.ts';
import { readCookie } from '../staff/sessions.server.ts';

export type FlashType = 'success' | 'error' | 'warning' | 'info';
export interface Flash {
  type: FlashType;
  message: string;
  /** Shown as a toast (bottom right) instead of a banner. */
  toast?: boolean;
}

const NAME = 'tdg_flash';

function attributes(maxAge: number): string {
  return ['Path=/admin', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`, ...(getConfig().https ? ['Secure'] : [])].join('; ');
}

export function flashCookie(flash: Flash): string {
  const value = Buffer.from(JSON.stringify(flash)).toString('base64url');
  return `${NAME}=${value}; ${attributes(60)}`;
}

/** The pending message, if any, and the header that clears it. */
export function readFlash(request: Request): { flash: Flash | null; clear: string | null } {
  const raw = readCookie(request, NAME);
  if (!raw) return { flash: null, clear: null };
  const clear = `${NAME}=; ${attributes(0)}`;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Flash>;
    if (typeof value.message !== 'string' || !['success', 'error', 'warning', 'info'].includes(String(value.type)))
      return { flash: null, clear };
    return { flash: { type: value.type as FlashType, message: value.message.slice(0, 300), toast: value.toast === true }, clear };
  } catch {
    return { flash: null, clear };
  }
}
