import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A PDF's text as poppler's pdftotext reads it (reading order, -layout off), whitespace made single spaces. */
export async function pdfToText(pdf: Uint8Array): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), "pdf-text-"));
  try {
    await writeFile(path.join(directory, "in.pdf"), pdf);
    await run("pdftotext", ["-enc", "UTF-8", path.join(directory, "in.pdf"), path.join(directory, "out.txt")]);
    return (await readFile(path.join(directory, "out.txt"), "utf8")).replace(/\s+/g, " ");
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export interface RenderedPage {
  width: number;
  height: number;
  /** RGB, row after row. */
  pixels: Buffer;
  /** The colour at x, y as "#rrggbb". */
  colorAt(x: number, y: number): string;
  /** How many pixels are within `tolerance` (per channel) of the colour. */
  count(color: string, tolerance?: number): number;
}

/** Every page of a PDF as pixels, rendered by poppler's pdftoppm (PPM: a header and raw RGB). */
export async function pdfToImages(pdf: Uint8Array, dpi = 50): Promise<RenderedPage[]> {
  const directory = await mkdtemp(path.join(tmpdir(), "pdf-image-"));
  try {
    await writeFile(path.join(directory, "in.pdf"), pdf);
    await run("pdftoppm", ["-r", String(dpi), path.join(directory, "in.pdf"), path.join(directory, "page")]);
    const files = (await readdir(directory)).filter((name) => name.endsWith(".ppm")).sort();
    return Promise.all(files.map(async (name) => parsePpm(await readFile(path.join(directory, name)))));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function parsePpm(file: Buffer): RenderedPage {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(file.subarray(0, 40).toString("latin1"));
  if (!header) throw new Error("pdftoppm did not write a binary PPM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = file.subarray(header[0].length);
  const hex = (offset: number) => `#${[0, 1, 2].map((i) => pixels[offset + i]!.toString(16).padStart(2, "0")).join("")}`;
  return {
    width,
    height,
    pixels,
    colorAt: (x, y) => hex((y * width + x) * 3),
    count(color, tolerance = 24) {
      const target = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
      let matches = 0;
      for (let offset = 0; offset < pixels.length; offset += 3) {
        if (target.every((value, i) => Math.abs(pixels[offset + i]! - value) <= tolerance)) matches += 1;
      }
      return matches;
    },
  };
}
