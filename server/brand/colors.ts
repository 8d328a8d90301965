/**
 * WCAG 2.1 contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): text on the brand colour
 * is black or white, whichever contrasts more (always at least 4.5:1, AA for normal text); the
 * colour itself must stand out from the white page by 3:1 (1.4.11, the buttons and the header).
 */
export const TEXT_CONTRAST_AA = 4.5;
export const NON_TEXT_CONTRAST_AA = 3;
export const WHITE = "#ffffff";
export const BLACK = "#000000";
export const HEX_COLOR = /^#[0-9a-f]{6}$/i;

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => channel(parseInt(hex.slice(start, start + 2), 16))) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The text colour for text on `background`: black or white, whichever contrasts more. */
export function textColorOn(background: string): typeof WHITE | typeof BLACK {
  return contrastRatio(background, WHITE) >= contrastRatio(background, BLACK) ? WHITE : BLACK;
}

/** Why a brand colour is refused, or null when it may be used. */
export function primaryColorProblem(hex: string): string | null {
  if (!HEX_COLOR.test(hex)) return "primaryColor must be a colour in the form #rrggbb";
  const onPage = contrastRatio(hex, WHITE);
  if (onPage < NON_TEXT_CONTRAST_AA) {
    return (
      `primaryColor ${hex.toLowerCase()} has a contrast of ${onPage.toFixed(2)}:1 against the white page; buttons and the header ` +
      `in it need at least ${NON_TEXT_CONTRAST_AA}:1 (WCAG 2.1 AA, non-text contrast): choose a darker colour`
    );
  }
  return null;
}
