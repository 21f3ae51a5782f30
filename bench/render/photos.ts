import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * Photo-like 800×450 JPEGs (what article images mostly are), drawn by Chromium itself: layered gradients and
 * shapes, screenshotted at quality 80. No image library needed.
 */
export async function makePhotos(browser: Browser, count: number): Promise<Uint8Array[]> {
  const page = await browser.newPage();
  await page.setViewport({ width: 800, height: 450 });
  const photos: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const hue = (i * 97) % 360;
    const circles = Array.from({ length: 40 }, (_, k) => {
      const x = (k * 137 + i * 53) % 800;
      const y = (k * 89 + i * 31) % 450;
      const r = 20 + ((k * 41) % 90);
      return `<div style="position:absolute;left:${x}px;top:${y}px;width:${r}px;height:${r}px;border-radius:50%;` +
        `background:radial-gradient(hsla(${(hue + k * 23) % 360},70%,60%,.8),transparent);filter:blur(${k % 4}px)"></div>`;
    }).join('');
    await page.setContent(`<body style="margin:0;width:800px;height:450px;overflow:hidden;position:relative;` +
      `background:linear-gradient(${i * 40}deg,hsl(${hue},60%,35%),hsl(${(hue + 120) % 360},50%,70%))">${circles}</body>`);
    photos.push(await page.screenshot({ type: 'jpeg', quality: 80 }));
  }
  await page.close();
  return photos;
}

/**
 * Plain puppeteer on the same Chromium binary: its default flags (plus --no-sandbox as root), nothing of the engine's.
 * It takes the screenshots for the photos, and it is the "raw puppeteer" the engine is compared with.
 */
export function launchPlainChromium(executablePath: string): Promise<Browser> {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return puppeteer.launch({
    executablePath,
    headless: executablePath.includes('headless-shell') ? 'shell' : true,
    pipe: true,
    args: asRoot ? ['--no-sandbox'] : [],
  });
}
