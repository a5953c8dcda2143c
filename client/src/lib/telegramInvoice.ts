import { on } from '@telegram-apps/bridge';
import { askTelegram, sendToTelegram, telegramSupports } from './telegramBridge';

export type InvoiceOutcome = 'paid' | 'cancelled' | 'failed' | 'pending';

/** Whether this Telegram can open an invoice inside the app (6.1 and later). */
export const canOpenInvoice = () => telegramSupports('web_app_open_invoice');

/** The slug Telegram opens an invoice by: what follows `$` (or `/invoice/`) in the link the bot made. */
export function invoiceSlug(link: string): string {
  const match = /\/(?:\$|invoice\/)([^/?#]+)/.exec(link);
  return match?.[1] ?? '';
}

/**
 * Opens Telegram's payment sheet for the invoice (web_app_open_invoice) and resolves with how it was closed
 * (invoice_closed for this slug): paid, cancelled, failed or pending; 'failed' when it could not be opened.
 */
export function openInvoice(link: string): Promise<InvoiceOutcome> {
  const slug = invoiceSlug(link);
  return askTelegram<InvoiceOutcome>(
    () => !!slug && sendToTelegram('web_app_open_invoice', { slug }),
    'failed',
    (answer) => [
      on('invoice_closed', (closed) => {
        if (closed.slug === slug) answer(closed.status as InvoiceOutcome);
      }),
    ],
  );
}
