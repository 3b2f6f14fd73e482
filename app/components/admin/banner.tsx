import { useEffect, useState } from 'react';
import { CloseIcon } from '../icons';

export type BannerType = 'success' | 'error' | 'warning' | 'info';

const STYLES: Record<BannerType, string> = {
  success: 'border-emerald-700 bg-emerald-50 text-emerald-950',
  error: 'border-red-700 bg-red-50 text-red-950',
  warning: 'border-amber-600 bg-amber-50 text-amber-950',
  info: 'border-indigo-700 bg-indigo-50 text-indigo-950',
};

/** spec §9: dashboard banners close by themselves after 5 seconds (or with their close button). */
export const BANNER_MS = 5000;

export function Banner({ type, message, autoClose = true }: { type: BannerType; message: string; autoClose?: boolean }) {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    if (!autoClose) return;
    const timer = setTimeout(() => setOpen(false), BANNER_MS);
    return () => clearTimeout(timer);
  }, [autoClose, message]);
  return (
    <div role={type === 'error' || type === 'warning' ? 'alert' : 'status'} aria-live={type === 'error' ? 'assertive' : 'polite'}>
      {open && (
        <div className={`flex items-start gap-3 rounded-lg border-l-4 p-4 ${STYLES[type]}`}>
          <p className="flex-1 font-medium">{message}</p>
          <button
            type="button"
            onClick={() => setOpen(false)}
            className="rounded p-1 hover:bg-black/5"
            aria-label="Close message"
          >
            <CloseIcon className="h-4 w-4" />
          </button>
        </div>
      )}
    </div>
  );
}
