import { boot, expect, test, withProvider } from './fixtures';

// A 1×1 red PNG, as an MCP server or the browser's screenshot would attach it.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVQI12P4z8AAAAMBAQAY3Y2wAAAAAElFTkSuQmCC';

test('a tool result image shows as a thumbnail on its card and opens full size', async ({ page }) => {
  const path = '/data/mcp-media/0a1b2c3d.png';
  await boot(page, {
    settings: withProvider,
    script: [
      {
        tool: {
          name: 'mcp__everything__get-tiny-image',
          arguments: '{}',
          result: JSON.stringify({ server: 'everything', content: [{ type: 'image', mime_type: 'image/png', path }] }),
          images: [{ type: 'image', mime_type: 'image/png', data: PNG, name: path }],
        },
      },
      { text: 'A red dot.' },
    ],
  });
  await page.getByRole('button', { name: /New chat|新对话/ }).first().click();
  const input = page.getByRole('textbox').last();
  await input.fill('show me the tiny image');
  await input.press('Enter');
  const card = page.locator('.tool-card[data-tool="mcp__everything__get-tiny-image"]');
  const thumb = card.getByRole('button', { name: `Open ${path} full size` });
  await expect(thumb).toBeVisible();
  await expect(thumb.locator('img')).toHaveAttribute('src', `data:image/png;base64,${PNG}`);
  expect(await thumb.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  await thumb.click();
  const dialog = page.getByRole('dialog', { name: path });
  await expect(dialog.locator('img.full')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await thumb.click();
  await dialog.getByRole('button', { name: 'Close the image' }).click();
  await expect(dialog).toHaveCount(0);
});
