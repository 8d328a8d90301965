// /docs was the Swagger UI; it moved to /docs/reference beside the guides (/docs/<name>). A bookmark
// (and a Swagger deep link: the fragment survives a redirect) still lands on it.
export function GET() {
  return new Response(null, { status: 308, headers: { Location: "/docs/reference" } });
}
