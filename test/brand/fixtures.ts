import sharp from "sharp";

/** A PNG logo of one colour, as a data: URL. */
export async function pngLogo(color = "#c2410c", width = 120, height = 40): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** An SVG that tries everything a served SVG could do: a script, event handlers, foreign HTML and external references. */
export function hostileSvg(externalBase: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY ext SYSTEM "${externalBase}/entity">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100" onload="alert(1)">
  <script>fetch("${externalBase}/script")</script>
  <style>@import url("${externalBase}/style.css"); circle { fill: url("${externalBase}/fill"); }</style>
  <rect x="0" y="0" width="200" height="100" fill="#15803d" onclick="alert(2)"/>
  <image href="${externalBase}/image.png" x="0" y="0" width="50" height="50"/>
  <image xlink:href="${externalBase}/xlink.png" x="50" y="0" width="50" height="50"/>
  <use href="${externalBase}/sprite.svg#icon"/>
  <foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="${externalBase}/frame"></iframe></foreignObject>
  <a href="javascript:alert(3)"><text x="10" y="90">&ext;</text></a>
</svg>`;
}

export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
