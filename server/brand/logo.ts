import sharp from "sharp";
import { AppError, badRequest } from "../errors";

/** The largest logo accepted, decoded (docs/brand.md, "The logo"). */
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_TOO_LARGE = `logo is larger than ${LOGO_MAX_BYTES / 1024} KB`;
export const LOGO_NOT_AN_IMAGE = "logo must be a data: URL of a PNG (image/png) or SVG (image/svg+xml) image";
export const LOGO_UNREADABLE = "logo could not be read as the image its data: URL declares";
/** The stored PNG fits in this box (the portal header, e-mails and PDFs show it far smaller). */
const LOGO_BOX = { width: 800, height: 400 };
/** An SVG's declared canvas above this many pixels is refused before it is drawn. */
const MAX_INPUT_PIXELS = 4096 * 4096;

const DATA_URL = /^data:(image\/png|image\/svg\+xml)(;charset=[\w-]+)?(;base64)?,(.*)$/is;

/** The bytes of a logo's data: URL and what it says they are; refused as the messages above say. */
export function decodeLogoDataUrl(dataUrl: string): { type: "png" | "svg"; bytes: Buffer } {
  // Bigger than any allowed logo even as base64: refuse before decoding.
  if (dataUrl.length > LOGO_MAX_BYTES * 4) throw new AppError("PAYLOAD_TOO_LARGE", LOGO_TOO_LARGE);
  const match = DATA_URL.exec(dataUrl.trim());
  if (!match) throw badRequest(LOGO_NOT_AN_IMAGE);
  const [, mime, , base64, payload = ""] = match;
  const bytes = base64 ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload), "utf8");
  if (bytes.length > LOGO_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", LOGO_TOO_LARGE);
  if (bytes.length === 0) throw badRequest(LOGO_UNREADABLE);
  return { type: mime!.toLowerCase() === "image/png" ? "png" : "svg", bytes };
}

/**
 * A logo as the PNG that is stored and shown. An SVG is never kept: it is drawn into pixels
 * (librsvg, through sharp), which runs no script and no event handler, and without a base
 * address fetches no external reference; the markup that would try is removed first as well.
 * A PNG is decoded and encoded again, so only pixels are kept (no text chunks, no trailing data).
 */
export async function logoPng(dataUrl: string): Promise<Buffer> {
  const { type, bytes } = decodeLogoDataUrl(dataUrl);
  const input = type === "svg" ? Buffer.from(inertSvg(bytes.toString("utf8")), "utf8") : bytes;
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", ...(type === "svg" ? { density: 144 } : {}) })
      .timeout({ seconds: 10 })
      .resize({ ...LOGO_BOX, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch {
    throw badRequest(LOGO_UNREADABLE);
  }
}

/**
 * An SVG's markup without what could act or reach out: scripts, foreign HTML, event handler
 * attributes, DOCTYPE and entity declarations, and any reference that leaves the document.
 * Not a sanitiser to serve SVG by (none is served): a first line before the rasteriser.
 */
export function inertSvg(svg: string): string {
  return (
    svg
      .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/gi, "")
      .replace(/<!ENTITY[\s\S]*?>/gi, "")
      .replace(/<(script|foreignObject|iframe|embed|object|audio|video)\b[\s\S]*?(<\/\1\s*>|\/>)/gi, "")
      .replace(/<(script|foreignObject|iframe|embed|object|audio|video)\b[^>]*>/gi, "")
      .replace(/\s(on[a-z]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "")
      .replace(/\s((?:xlink:)?href|src)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, (attribute: string, _name: string, value: string) =>
        /^["']?\s*(#|data:image\/(png|jpeg|gif);)/i.test(value) ? attribute : "",
      )
      .replace(/url\(\s*(['"]?)(?!#)[^)]*\1\s*\)/gi, "none")
      .replace(/@import[^;]*;?/gi, "")
      // entities whose declarations went (an external one would be read from outside)
      .replace(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)[\w.-]+;/gi, "")
  );
}

/** The logo as a data: URL (what GET answers and the portal and e-mails embed). */
export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString("base64")}`;
}
