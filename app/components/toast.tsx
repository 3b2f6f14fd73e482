import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CloseIcon } from './icons';

export type ToastType = 'success' | 'error' | 'warning' | 'info';
export interface Toast {
  id: number;
  type: ToastType;
  message: string;
}

/** spec §9: public toasts close after 5000 ms (dashboard ones after 6 s). */
export const PUBLIC_TOAST_MS = 5000;

const STYLES: Record<ToastType, string> = {
  success: 'border-emerald-700 bg-emerald-50 text-emerald-950',
  error: 'border-red-700 bg-red-50 text-red-950',
  warning: 'border-amber-600 bg-amber-50 text-amber-950',
  info: 'border-indigo-700 bg-indigo-50 text-indigo-950',
};
const LABELS: Record<ToastType, string> = { success: 'Success', error: 'Error', warning: 'Warning', info: 'Information' };

const ToastContext = createContext<(type: ToastType, message: string) => void>(() => undefined);

/** Shows a toast from anywhere below <ToastProvider>. */
export function useToast() {
  return useContext(ToastContext);
}

/**
 * spec §4 Toast: shown when a message exists; closes after its lifetime or on click; four types.
 * Messages are announced by live regions that exist before any toast is added.
 */
export function ToastProvider({ children, lifetime = PUBLIC_TOAST_MS }: { children: ReactNode; lifetime?: number }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback((type: ToastType, message: string) => {
    const id = nextId.current++;
    setToasts((all) => [...all, { id, type, message }]);
  }, []);
  const value = useMemo(() => show, [show]);
  const urgent = toasts.filter((t) => t.type === 'error' || t.type === 'warning');
  const polite = toasts.filter((t) => t.type === 'success' || t.type === 'info');

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="pointer-events-none fixed right-4 bottom-4 z-[70] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-3">
        <div role="alert" aria-live="assertive" data-toasts="urgent" className="flex flex-col gap-3">
          {urgent.map((t) => (
            <ToastItem key={t.id} toast={t} lifetime={lifetime} onClose={dismiss} />
          ))}
        </div>
        <div role="status" aria-live="polite" data-toasts="polite" className="flex flex-col gap-3">
          {polite.map((t) => (
            <ToastItem key={t.id} toast={t} lifetime={lifetime} onClose={dismiss} />
          ))}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, lifetime, onClose }: { toast: Toast; lifetime: number; onClose: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onClose(toast.id), lifetime);
    return () => clearTimeout(timer);
  }, [toast.id, lifetime, onClose]);
  return (
    <button
      type="button"
      onClick={() => onClose(toast.id)}
      className={`pointer-events-auto flex w-full animate-fade-in items-start gap-3 rounded-lg border-l-4 p-4 text-left shadow-lg ${STYLES[toast.type]}`}
    >
      <span className="flex-1">
        <span className="sr-only">{LABELS[toast.type]}: </span>
        {toast.message}
      </span>
      <CloseIcon className="mt-0.5 h-4 w-4 shrink-0" />
      <span className="sr-only">(select to close)</span>
    </button>
  );
}
