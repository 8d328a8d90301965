import { expect, type Page } from "@playwright/test";

/**
 * No element reaches past the viewport's right edge, unless a box that scrolls or clips sideways
 * (a table's scroll box, the phone's tab strip) holds it: the page itself never scrolls sideways.
 */
export async function expectWithinViewport(page: Page) {
  const wide = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const held = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(parent).overflowX)) return true;
      }
      return false;
    };
    const found: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5 || held(element)) continue;
      found.push(
        `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(" ")[0]}` : ""} (${Math.round(box.right)} px)`,
      );
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, found: found.slice(0, 10) };
  });
  expect(wide.found, `elements wider than the ${wide.width} px viewport on ${page.url()}`).toEqual([]);
  expect(wide.scrollWidth).toBeLessThanOrEqual(wide.width);
}

export const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
