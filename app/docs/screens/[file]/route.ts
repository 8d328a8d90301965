import { readFile } from "node:fs/promises";
import path from "node:path";

// The screenshots the guides show (docs/screens/, `npm run screens`), for the guides served at /docs/<name>.
const TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp" };

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = TYPES[path.extname(file).toLowerCase()];
  if (!type || !/^[\w.-]+$/.test(file) || file.startsWith(".")) return new Response("Not found", { status: 404 });
  try {
    const body = await readFile(path.join(/*turbopackIgnore: true*/ process.cwd(), "docs", "screens", file));
    return new Response(body, { headers: { "Content-Type": type, "Cache-Control": "public, max-age=3600" } });
  } catch {
    return new Response("Not found", { status: 404 });
  }
}
