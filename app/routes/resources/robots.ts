// Placeholder until this endpoint is built (issue 3).
export function loader() {
  return new Response('Not built yet', { status: 404 });
}
