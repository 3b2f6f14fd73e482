// Placeholder until this page is built (issue 3).
export default function Page() {
  return <h1 className="px-4 py-16 text-3xl font-bold">article</h1>;
}
