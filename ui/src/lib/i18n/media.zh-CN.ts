// 设置 → 媒体，以及对话中显示的媒体的简体中文文案（并入 `zhCN`）。
import type { mediaEn } from './media.en';

export const mediaZhCN: Record<keyof typeof mediaEn, string> = {
  'settings.media': '媒体',
  'settings.media.intro': '查看图片（vision_analyze）、生成图片（image_generate）和朗读文字（text_to_speech）的工具。',
  'settings.media.vision': '视觉',
  'settings.media.visionModel': '视觉模型',
  'settings.media.visionHint':
    '当对话的模型不能接收图片时使用：<提供方 id>:<模型>，例如 ollama:llava:7b 或 openai:gpt-4o-mini。留空：只有能接收图片的对话模型会查看图片。',
  'settings.media.image': '图片生成',
  'settings.media.imageHint':
    'OpenAI Images API 端点。填写基础 URL（留空即 https://api.openai.com/v1，需要下面的密钥）或本地服务器的地址，再填写密钥。',
  'settings.media.baseUrl': '基础 URL',
  'settings.media.model': '模型',
  'settings.media.speech': '文字转语音',
  'settings.media.backend': '后端',
  'settings.media.backend.local': '本机 espeak-ng（离线）',
  'settings.media.backend.openai': '兼容 OpenAI 的 /audio/speech',
  'settings.media.backend.edge': 'Microsoft Edge 朗读（不可用）',
  'settings.media.voice': '声音',
  'settings.media.speechHint':
    '本地后端需要 espeak-ng（Debian/Ubuntu：sudo apt-get install espeak-ng；macOS：brew install espeak-ng），可离线使用。OpenAI：填写基础 URL（留空即 https://api.openai.com/v1）和密钥。',
  'settings.media.edgeHint': 'Edge 朗读没有公开 API；请改用本地或 OpenAI。',
  'media.image': '生成的图片',
  'media.audio': '音频',
  'media.loadFailed': '无法显示该文件：{error}',
};
