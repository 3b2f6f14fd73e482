/** A grey band with a heading and a grid of small cards, each a name and a line of text. */
export function CardGridSection({
  id,
  title,
  items,
  columns,
  itemsLang,
}: {
  id: string;
  title: string;
  items: readonly { name: string; text: string }[];
  columns: 3 | 4;
  /** "en" for items from Site settings on a page in another language. */
  itemsLang?: string | undefined;
}) {
  return (
    <section aria-labelledby={id} className="bg-slate-50">
      <div className="mx-auto max-w-7xl px-4 py-16">
        <h2 id={id} className="text-3xl font-bold text-slate-900">
          {title}
        </h2>
        <ul className={`mt-8 grid gap-6 sm:grid-cols-2 ${columns === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3'}`}>
          {items.map((item) => (
            <li key={item.name} lang={itemsLang} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-lg font-bold text-indigo-900">{item.name}</h3>
              <p className="mt-2 text-slate-700">{item.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
