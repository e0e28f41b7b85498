// Every page in 简体中文 with realistic data (several providers, a chat with tool cards and a
// failed tool, jobs with runs, knowledge with unreadable files and citations, memories, the
// audit log, MCP servers, skills): no run of three or more Latin letters may show that is not a
// name (Hearth, MCP, model, tool, file and server names…). Screenshots of each page in both
// languages are kept in test-results/walk-<language>-<page>.png.
import type { Page } from '@playwright/test';
import type { JobView } from '../../src/lib/jobs';
import { boot, expect, memory, session, test } from './fixtures';
import { mcpServer } from './mcpServers';
import { localModelItems, recommended } from './localModelItems';
import { skillItem } from './skillItems';

/** Names that stay as they are in any language. */
const NAMES = new Set(
  [
    'Hearth', 'MCP', 'URL', 'API', 'JSON', 'LM', 'Studio', 'Ollama', 'OpenAI', 'Anthropic', 'Gemini', 'Chrome', 'Chromium', 'SQLite', 'OAuth',
    // Words Chinese software writes in Latin letters.
    'token', 'Office',
    // Skill formats and their files.
    'Agent', 'CeeCore', 'prompt', 'manifest',
    // Products, services and systems named in help text; languages named in their own.
    'English', 'SearXNG', 'Brave', 'Tavily', 'Images', 'Microsoft', 'Edge', 'Debian', 'Ubuntu', 'macOS', 'DevTools', 'Webhook', 'POST',
    'Telegram', 'Claude', 'Desktop', 'Cursor', 'Jan', 'llava', 'espeak', 'Hugging', 'Face',
    // The model file format and model families.
    'GGUF', 'Gemma',
    // Keys and the kernel features of the commands' sandbox.
    'SSH', 'GPG', 'Landlock',
    // Commands and config keys quoted in help text.
    'sudo', 'apt', 'install', 'brew', 'endpoint', 'pubkey', 'mcpServers', 'updates',
    'HTTP', 'HTTPS', 'PDF', 'cron', 'UTC', 'Asia', 'Shanghai', 'localhost', 'http', 'https', 'npx', 'uvx',
    // Models, providers, tools, servers, skills, jobs, files, paths of this scenario.
    'llama', 'gpt', 'mini', 'qwen', 'fake', 'model', 'Local', 'read', 'file', 'write', 'exec', 'grep', 'knowledge', 'search', 'cronjob',
    'everything', 'echo', 'get', 'sum', 'server', 'modelcontextprotocol', 'weather', 'daily', 'report', 'trip', 'planner',
    'home', 'notes', 'budget', 'scan', 'pdf', 'txt', 'empty', 'program', 'data', 'logs', 'log', 'desktop', 'workspace', 'hearth', 'config', 'toml',
    'Documents', 'news', 'brief', 'md', 'tmp', 'etc', 'hosts', 'cargo', 'test', 'Cargo', 'lock', 'src', 'main', 'skills', 'SKILL',
  ].map((n) => n.toLowerCase()),
);

const pdfJob: JobView = {
  id: 'job-1',
  name: '每日简报',
  schedule: { type: 'cron', expr: '0 8 * * *' },
  schedule_description: 'At 08:00.',
  tz: 'Asia/Shanghai',
  prompt: '总结今天的新闻',
  target: 'desktop:news',
  model: null,
  enabled: true,
  notify: true,
  authorization: 'authorized',
  authorized_tools: ['exec', 'write_file'],
  authorized_at: '2029-12-31T10:00:00+08:00',
  next_run: '2030-01-01T08:00:00+08:00',
  last_run: '2029-12-31T08:00:00+08:00',
  last_status: 'failed',
  run_requested: false,
  created_at: '2029-12-30T10:00:00+08:00',
  skill: null,
};

const providers = [
  { id: 'local', name: 'LM Studio', kind: 'openai' as const, base_url: 'http://127.0.0.1:1234/v1', default_model: 'qwen-7b' },
  { id: 'ollama', name: 'Ollama', kind: 'ollama' as const, base_url: 'http://127.0.0.1:11434', default_model: 'llama3' },
  { id: 'openai', name: 'OpenAI', kind: 'openai' as const, base_url: 'https://api.openai.com/v1', default_model: 'gpt-4o-mini' },
];

/** Runs of three or more Latin letters in the page's visible text that are not names. Code,
 * inputs and identifier-like tokens (`vision_analyze`, `espeak-ng`, paths, URLs, `--flags`,
 * JSON) are names by their form. */
async function englishLeft(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('code, pre, kbd, textarea, script, style, [hidden]')) continue;
      if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      if (node.textContent?.trim()) out.push(node.textContent.trim());
    }
    return out;
  });
  const left = new Set<string>();
  for (const text of texts) {
    for (const token of text.split(/[\s\u3000-\u303f\uff00-\uffef（）、，。：；“”‘’《》]+/)) {
      if (/[_./:=\\\[\]{}"<>@#-]/.test(token.replace(/[.:]$/, ''))) continue;
      for (const word of token.match(/[A-Za-z]{3,}/g) ?? []) {
        if (!NAMES.has(word.toLowerCase())) left.add(`${word}  ←  ${text.slice(0, 120)}`);
      }
    }
  }
  return [...left];
}

for (const language of ['zh-CN', 'en'] as const) {
  const zh = language === 'zh-CN';
  const words = (chinese: string, english: string) => (zh ? chinese : english);
  /** Screenshots the page (and its scrolling sections); in Chinese, fails on English left. */
  const expectChinese = async (page: Page, name: string, sections: string[] = []): Promise<void> => {
    await page.screenshot({ path: `test-results/walk-${language}-${name}.png` });
    for (const [i, section] of sections.entries()) {
      await page.locator(section).first().screenshot({ path: `test-results/walk-${language}-${name}-${i}.png` });
    }
    if (zh) expect(await englishLeft(page), `English left on ${name}`).toEqual([]);
  };

  test(`every page with realistic data: screenshots, and in 简体中文 no English but names (${language})`, async ({ page }) => {
    const budgetHit = { file: '/home/u/资料/budget.md', unit: 'line', first: 1, last: 4, label: null, citation: 'budget.md, lines 1-4', snippet: '住宿 800 欧元', score: 1 };
    test.setTimeout(60_000);
    await boot(page, {
      settings: { language, providers, default_provider: 'local', default_model: 'qwen-7b', mcp_servers: [mcpServer('everything', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] })] },
      models: ['qwen-7b', 'llama3'],
      localModels: localModelItems,
      recommended,
      sessions: [session('desktop:news', '新闻摘要', { updated_at: 3 }), session('desktop:trip', '里斯本旅行计划', { updated_at: 2, pinned: true })],
      script: [
        { text: '我先看看预算文件。' },
        { tool: { name: 'read_file', arguments: '{"path":"notes/budget.md"}', result: '{"path":"notes/budget.md","content":"住宿 800 欧元\\n机票 600 欧元"}' } },
        {
          tool: {
            name: 'read_file',
            arguments: '{"path":"notes/missing.md"}',
            result: '{"error":{"kind":"not_found","message":"notes/missing.md does not exist","argument":"path"}}',
            isError: true,
            views: [{ kind: 'failure', error: 'not_found', message: 'notes/missing.md does not exist', field: null }],
          },
        },
        {
          tool: {
            name: 'knowledge_search',
            arguments: '{"query":"预算"}',
            result: JSON.stringify({ results: [budgetHit] }),
            views: [{ kind: 'citations', hits: [budgetHit] }],
          },
        },
        { text: '预算合计 **1400 欧元**：\n\n| 项目 | 金额 |\n| --- | --- |\n| 住宿 | 800 |\n| 机票 | 600 |\n' },
      ],
      jobs: [pdfJob],
      runs: { 'job-1': [{ id: 1, status: 'failed', catch_up: false, manual: false, authorized: true, scheduled_for: '2029-12-31T08:00:00+08:00', started_at: '2029-12-31T08:00:00+08:00', finished_at: '2029-12-31T08:00:05+08:00', output: null, error: 'the model server is not reachable', error_code: { code: 'model_unreachable', params: { url: 'http://127.0.0.1:1234/v1', detail: 'connection refused' } } }] },
      memories: [memory(1, '用户住在上海，喜欢早起。', { pinned: true }), memory(2, '用户的预算上限是 2000 欧元。', { category: 'preference' })],
      skills: [skillItem('trip-planner', { description: '规划一次旅行的行程和预算' }), skillItem('daily-report', { description: '写每日工作报告' })],
      mcpTools: { everything: [{ tool: 'echo', description: '原样返回输入', read_only: true }, { tool: 'get-sum', description: '两数相加' }] },
      knowledge: {
        folders: ['/home/u/资料'],
        files: 3,
        chunks: 12,
        errors: 2,
        last_indexed: 1_700_000_000_000,
        watching: true,
        progress: { running: false, total: 0, done: 0, current: null, last: null },
        file_errors: [
          { path: '/home/u/资料/empty.md', error: { code: 'empty' } },
          { path: '/home/u/资料/scan.pdf', error: { code: 'no_text_layer' } },
        ],
      },
      citations: [{ file: '/home/u/资料/budget.md', unit: 'line', first: 1, last: 4, label: null, citation: 'budget.md, lines 1-4', snippet: '住宿 800 欧元', score: 1 }],
      audit: [
        {
          id: 2,
          session_id: 'desktop:news',
          tool: 'cronjob',
          arguments: '{"action":"authorize","job_id":"job-1"}',
          decision: 'allow',
          reason: null,
          reason_code: {
            reason: { code: 'always_confirm', params: { tool: 'cronjob' } },
            confirmation: {
              code: 'authorize_job',
              params: { job: '每日简报', tools: ['exec', 'write_file'], instruction: '总结今天的新闻', schedule: { type: 'cron', expr: '0 8 * * *' }, schedule_description: 'At 08:00.', tz: 'Asia/Shanghai', next_run: '2030-01-01T08:00:00+08:00', delivers_to: null },
            },
            allowed: 'once',
          },
          actor: 'user',
          created_at: 1_700_000_100_000,
        },
        {
          id: 1,
          session_id: null,
          tool: 'exec',
          arguments: '{"command":"cargo test"}',
          decision: 'deny',
          reason: null,
          reason_code: { reason: { code: 'needs_approval', params: { tool: 'exec', security: 'personal_cli', every_time: false } }, confirmation: null, allowed: null },
          actor: 'timeout',
          created_at: 1_700_000_000_000,
        },
      ],
    });

    // A chat with a reply that read a file, failed to read another and searched the knowledge base.
    await page.getByRole('button', { name: words('新建对话', 'New chat') }).first().click();
    const input = page.getByRole('textbox', { name: words('消息', 'Message') });
    await input.fill('帮我算一下旅行预算');
    await input.press('Enter');
    await expect(page.locator('article.message.assistant[data-status="complete"]').last()).toContainText('1400');
    await expectChinese(page, 'chat');

    await page.getByRole('button', { name: words('技能', 'Skills') }).click();
    await expect(page.getByText('trip-planner').first()).toBeVisible();
    await expectChinese(page, 'skills');

    await page.getByRole('button', { name: words('知识库', 'Knowledge') }).click();
    await expect(page.locator('.knowledge-errors li')).toHaveCount(2);
    await page.getByRole('searchbox', { name: words('搜索知识库', 'Search the knowledge base') }).fill('住宿');
    await expect(page.locator('.knowledge-hits .snippet').first()).toBeVisible();
    await expectChinese(page, 'knowledge');

    await page.getByRole('button', { name: words('定时任务', 'Jobs') }).click();
    await expect(page.getByText('每日简报').first()).toBeVisible();
    // Its history, with the failed run's error.
    await page.getByRole('button', { name: words('历史', 'History') }).click();
    await expect(page.locator('li.run[data-status="failed"]')).toBeVisible();
    await expectChinese(page, 'jobs');

    await page.getByRole('button', { name: words('记忆', 'Memory') }).click();
    await expect(page.getByText('用户住在上海，喜欢早起。')).toBeVisible();
    await expectChinese(page, 'memory');

    await page.getByRole('button', { name: words('设置', 'Settings') }).click();
    await expect(page.locator('[data-server="everything"] [data-state="ready"]')).toBeVisible();
    await expect(page.locator('table.audit tbody tr')).toHaveCount(2);
    await expect(page.locator('section#models .local-model')).toHaveCount(2);
    await expectChinese(page, 'settings', ['section#models', 'section[aria-labelledby="mcp-title"]', 'table.audit']);
  });
}
