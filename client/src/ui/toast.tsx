import { haptic } from '../lib/telegram';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/** How long a toast stays, then collapses (docs/product.md: 1000 ms, then 300 ms). */
const TOAST_MS = 1000;
const COLLAPSE_MS = 300;

type ToastKind = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  text: string;
  kind: ToastKind;
  /** Closing: it collapses, and the toasts below it move up, before it is gone. */
  leaving?: boolean;
}

type ShowToast = (text: string, kind?: ToastKind) => void;
const ToastContext = createContext<ShowToast | null>(null);

/** Toasts top-right (docs/product.md), each closing after TOAST_MS and collapsing over COLLAPSE_MS. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const show = useCallback<ShowToast>((text, kind = 'info') => {
    // a credit or a claim is felt as a success, a refusal as an error (inside Telegram)
    if (kind !== 'info') haptic(kind);
    const id = nextId.current++;
    setToasts((current) => [...current, { id, text, kind }]);
    setTimeout(() => {
      setToasts((current) => current.map((toast) => (toast.id === id ? { ...toast, leaving: true } : toast)));
      setTimeout(() => setToasts((current) => current.filter((toast) => toast.id !== id)), COLLAPSE_MS);
    }, TOAST_MS);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.kind}${toast.leaving ? ' toast-leaving' : ''}`}>
            {toast.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs <ToastProvider>');
  return show;
}
