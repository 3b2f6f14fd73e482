import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useBlocker, useLocation, useNavigate } from 'react-router';
import { formatInTimeZone } from '~/lib/schedule';
import { AUTOSAVE_FIELDS, REVISION_MESSAGES, type AutosaveValues } from '~/lib/revisions';

// Issue 13, autosave (docs/decisions/016-revisions-and-autosave.md). While the content form has unsaved
// changes they are kept every few seconds in this browser (localStorage, by item id or "new-<type>")
// and in the staff member's slot on the server, so a crash, a closed tab or a lost connection loses
// at most a few seconds. Coming back offers "Restore unsaved changes from {time}" or Discard. A save
// that succeeds forgets them. Leaving the form with unsaved changes asks first.

/** How often unsaved changes are kept. */
export const AUTOSAVE_EVERY_MS = 5_000;
const STORAGE_PREFIX = 'tdg:autosave:';
/** Fields typed as plain text, the same in the form as in what was stored. */
const TYPED_FIELDS = ['title', 'tags', 'summary', 'easyRead'] as const;
const ENDPOINT = '/admin/content/autosave';

interface Kept {
  /** Whose typing it is: a browser shared by two staff members never offers one's changes to the other. */
  staff: string;
  savedAt: string;
  values: AutosaveValues;
}

interface Setup {
  staff: string;
  timeZone: string;
}

export interface AutosaveState {
  /** Changes kept from an earlier visit, waiting for Restore or Discard. */
  offer: { time: string } | null;
  /** The form was just filled from kept changes. */
  restored: boolean;
  restore: () => void;
  discard: () => void;
}

function storageKey(slot: string) {
  return STORAGE_PREFIX + slot;
}

function readLocal(slot: string): Kept | undefined {
  try {
    const raw = window.localStorage.getItem(storageKey(slot));
    if (!raw) return undefined;
    const kept = JSON.parse(raw) as Partial<Kept>;
    if (typeof kept.staff !== 'string' || typeof kept.savedAt !== 'string' || !kept.values) return undefined;
    return { staff: kept.staff, savedAt: kept.savedAt, values: normalise(kept.values) };
  } catch {
    return undefined;
  }
}

function writeLocal(slot: string, kept: Kept) {
  try {
    window.localStorage.setItem(storageKey(slot), JSON.stringify(kept));
  } catch {
    // Storage full or refused (private mode): the server slot still keeps them.
  }
}

function removeLocal(slot: string) {
  try {
    window.localStorage.removeItem(storageKey(slot));
  } catch {
    // Nothing kept to remove.
  }
}

function normalise(values: object): AutosaveValues {
  const record = values as Partial<Record<string, unknown>>;
  const out = {} as AutosaveValues;
  for (const f of AUTOSAVE_FIELDS) out[f] = typeof record[f] === 'string' ? record[f] : '';
  return out;
}

function same(a: AutosaveValues, b: AutosaveValues): boolean {
  return AUTOSAVE_FIELDS.every((f) => a[f] === b[f]);
}

function readForm(form: HTMLFormElement | null): AutosaveValues | undefined {
  if (!form) return undefined;
  const data = new FormData(form);
  return normalise(Object.fromEntries([...data.entries()].filter(([, v]) => typeof v === 'string')));
}

function post(body: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) form.append(key, value);
  return fetch(ENDPOINT, { method: 'POST', body: form }).catch(() => undefined);
}

interface Scope {
  /** The item's id or "new-<type>"; null: nothing is kept. */
  slot: string | null;
  /** The form opens holding unsaved changes (a restored version, or restored kept changes). */
  unsavedFromStart: boolean;
  /** The form was just filled from kept changes. */
  restored: boolean;
  onRestore: (values: AutosaveValues) => void;
}

const AutosaveContext = createContext<Scope>({
  slot: null,
  unsavedFromStart: false,
  restored: false,
  onRestore: () => undefined,
});

/**
 * Around a form that keeps its unsaved changes: when kept changes are restored, the form is drawn
 * again (a new `generation`) starting from them, since some of its fields hold their own state.
 */
export function AutosaveScope({
  slot,
  unsavedFromStart,
  children,
}: {
  slot: string | null;
  unsavedFromStart: boolean;
  children: (refill: { generation: number; values: AutosaveValues | null }) => ReactNode;
}) {
  const [refill, setRefill] = useState<{ generation: number; values: AutosaveValues | null }>({ generation: 0, values: null });
  const scope = useMemo<Scope>(
    () => ({
      slot,
      unsavedFromStart: unsavedFromStart || refill.values !== null,
      restored: refill.values !== null,
      onRestore: (values) => setRefill((r) => ({ generation: r.generation + 1, values })),
    }),
    [slot, unsavedFromStart, refill.values],
  );
  return <AutosaveContext value={scope}>{children(refill)}</AutosaveContext>;
}

/**
 * The content form's autosave, inside an AutosaveScope. `baseline` holds the values that count as
 * saved (the stored item, or an empty new form); `saved` changes identity whenever a save succeeds.
 */
export function useAutosave({
  formRef,
  baseline,
  saved,
}: {
  formRef: RefObject<HTMLFormElement | null>;
  baseline: AutosaveValues;
  saved: unknown;
}): AutosaveState {
  const { slot, unsavedFromStart, restored, onRestore } = useContext(AutosaveContext);
  const navigate = useNavigate();
  const location = useLocation();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [offer, setOffer] = useState<Kept | null>(null);
  // What counts as saved; null: everything in the form is unsaved (until the next save).
  const savedValues = useRef<AutosaveValues | null>(unsavedFromStart ? null : baseline);
  // Only typing makes changes: the editor may tidy the stored HTML as it loads, which changes nothing.
  const touched = useRef(unsavedFromStart);
  const lastKept = useRef<AutosaveValues | null>(null);
  // One request at a time, in order: a slow keep can never land after the discard that followed it.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const send = useCallback((body: Record<string, string>) => {
    queue.current = queue.current.then(() => post(body));
  }, []);

  const unsaved = useCallback((): AutosaveValues | undefined => {
    if (!touched.current) return undefined;
    const values = readForm(formRef.current);
    if (!values || (savedValues.current && same(values, savedValues.current))) return undefined;
    return values;
  }, [formRef]);

  // What this staff member kept earlier, here or on the server: offer the newer one.
  useEffect(() => {
    if (!slot) return;
    const controller = new AbortController();
    fetch(`${ENDPOINT}?slot=${encodeURIComponent(slot)}`, { signal: controller.signal })
      .then((r) =>
        r.ok ? (r.json() as Promise<Setup & { saved: { values: AutosaveValues; savedAt: string } | null }>) : undefined,
      )
      .then((answer) => {
        if (!answer) return;
        setSetup({ staff: answer.staff, timeZone: answer.timeZone });
        if (unsavedFromStart) return;
        const local = readLocal(slot);
        const candidates = [
          local?.staff === answer.staff ? local : undefined,
          answer.saved ? { ...answer.saved, staff: answer.staff } : undefined,
        ]
          .filter((k): k is Kept => Boolean(k))
          .sort((a, b) => b.savedAt.localeCompare(a.savedAt));
        const newest = candidates[0];
        if (newest && !same(normalise(newest.values), baseline)) setOffer({ ...newest, values: normalise(newest.values) });
      })
      .catch(() => undefined);
    return () => controller.abort();
    // Once per form: the baseline is the form's own starting point.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [slot]);

  // Typing marks the form changed, and so does typing done before the script ran (a slow connection):
  // a plain text field that already differs from the stored item. (The editor may tidy the body as it
  // loads, and the picture and category are set by controls that only work with the script.)
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const typedEarly = readForm(form);
    if (typedEarly && TYPED_FIELDS.some((f) => typedEarly[f] !== baseline[f])) touched.current = true;
    const mark = () => {
      touched.current = true;
    };
    form.addEventListener('input', mark);
    form.addEventListener('change', mark);
    return () => {
      form.removeEventListener('input', mark);
      form.removeEventListener('change', mark);
    };
    // Once per form: the baseline is the form's own starting point.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [formRef]);

  // Every few seconds: keep what changed since last time, here and on the server. While an earlier
  // visit's changes wait for an answer nothing is kept, so they are not overwritten unseen.
  const keep = useCallback(
    (toServer: boolean) => {
      if (!slot || !setup || offer) return;
      const values = unsaved();
      if (!values || (lastKept.current && same(values, lastKept.current))) return;
      lastKept.current = values;
      writeLocal(slot, { staff: setup.staff, savedAt: new Date().toISOString(), values });
      if (toServer) send({ intent: 'save', slot, ...values });
    },
    [slot, setup, offer, unsaved, send],
  );
  useEffect(() => {
    const timer = setInterval(() => keep(true), AUTOSAVE_EVERY_MS);
    // A closing tab or a phone putting the browser away: keep what is there now, in this browser.
    const hidden = () => keep(false);
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') keep(false);
    };
    window.addEventListener('pagehide', hidden);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pagehide', hidden);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [keep]);

  // A save succeeded: what the form holds is saved; forget what was kept (the server forgets its slot
  // in the save itself) and the restore that brought the form here.
  const firstSaved = useRef(saved);
  useEffect(() => {
    if (saved === firstSaved.current || !saved) return;
    savedValues.current = readForm(formRef.current) ?? null;
    touched.current = false;
    lastKept.current = null;
    if (slot) {
      removeLocal(slot);
      // The save emptied the server's slot; a keep sent just before it may have filled it again.
      send({ intent: 'discard', slot });
    }
    if (new URLSearchParams(location.search).has('restore'))
      void navigate({ pathname: location.pathname }, { replace: true, preventScrollReset: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [saved]);

  // Leaving with unsaved changes asks first: another page of the site (React Router) or the browser's own.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && Boolean(unsaved()),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(REVISION_MESSAGES.leaveConfirm)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!unsaved()) return;
      keep(false);
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [unsaved, keep]);

  return {
    offer: offer && setup ? { time: formatInTimeZone(offer.savedAt, setup.timeZone) } : null,
    restored,
    restore: () => {
      if (!offer) return;
      setOffer(null);
      onRestore(offer.values);
    },
    discard: () => {
      setOffer(null);
      if (!slot) return;
      removeLocal(slot);
      send({ intent: 'discard', slot });
      document.getElementById('title')?.focus();
    },
  };
}

/** The offer to bring back kept changes, and, once restored, what that means. */
export function AutosaveBanner({ autosave }: { autosave: AutosaveState }) {
  const { restored } = autosave;
  const notice = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (restored) notice.current?.focus();
  }, [restored]);
  if (restored)
    return (
      <p
        ref={notice}
        tabIndex={-1}
        role="status"
        className="rounded-lg border-l-4 border-indigo-700 bg-indigo-50 p-4 font-medium text-indigo-950"
      >
        Unsaved changes restored. They are saved only when you save the form.
      </p>
    );
  if (!autosave.offer) return null;
  return (
    <section aria-labelledby="autosave-title" className="rounded-lg border-l-4 border-amber-600 bg-amber-50 p-4 text-amber-950">
      <h2 id="autosave-title" className="font-semibold">
        This form has changes that were not saved
      </h2>
      <div className="mt-3 flex flex-wrap gap-3">
        <button
          type="button"
          onClick={autosave.restore}
          className="min-h-11 rounded-lg bg-indigo-800 px-4 font-semibold text-white hover:bg-indigo-900"
        >
          {REVISION_MESSAGES.restoreUnsaved(autosave.offer.time)}
        </button>
        <button
          type="button"
          onClick={autosave.discard}
          className="min-h-11 rounded-lg border-2 border-slate-400 bg-white px-4 font-semibold text-slate-900 hover:bg-slate-100"
        >
          Discard
        </button>
      </div>
    </section>
  );
}
