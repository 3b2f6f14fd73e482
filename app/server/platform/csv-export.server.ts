import { getLogger } from './logger.server.ts';

// The dashboard's CSV downloads (inbox, subscribers): RFC 4180 cells safe from spreadsheet formulas,
// streamed a page at a time as the client reads, and audited once when the stream ends or is stopped.

/**
 * One CSV cell (RFC 4180). A cell that a spreadsheet would run as a formula (starting with =, +, -, @,
 * tab or carriage return) gets a leading single quote, so it shows as text.
 */
export function csvCell(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: (string | null)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * `chunks` as a byte stream that reads the next one only when the client takes it, so memory stays
 * flat however long the list. `audit(complete)` runs once: when the stream ends, fails or is stopped.
 */
export function csvStream(
  chunks: AsyncGenerator<string, void, undefined>,
  what: string,
  audit: (complete: boolean) => Promise<void>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let audited = false;
  const auditOnce = async (complete: boolean) => {
    if (audited) return;
    audited = true;
    await audit(complete).catch((error: unknown) => getLogger().error({ err: error }, 'the export could not be audited'));
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) {
            await auditOnce(true);
            controller.close();
          } else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          getLogger().error({ err: error }, `exporting ${what} failed`);
          await auditOnce(false);
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
        await auditOnce(false);
      },
    },
    { highWaterMark: 1 },
  );
}

/** A download's file name: {prefix}-YYYY-MM-DD.csv (the date in Uganda). */
export function csvFileName(prefix: string, now = new Date()): string {
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Kampala',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  return `${prefix}-${day}.csv`;
}
