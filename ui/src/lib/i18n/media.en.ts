// English strings of Settings → Media and of the media shown in chats (spread into `en`).
export const mediaEn = {
  'settings.media': 'Media',
  'settings.media.intro':
    'The tools that look at images (vision_analyze), make images (image_generate) and speak text (text_to_speech).',
  'settings.media.vision': 'Vision',
  'settings.media.visionModel': 'Vision model',
  'settings.media.visionHint':
    'Used when the chat’s model does not take images: <provider id>:<model>, e.g. ollama:llava:7b or openai:gpt-4o-mini. Empty: only image-capable chat models look.',
  'settings.media.image': 'Image generation',
  'settings.media.imageHint':
    'An OpenAI Images API endpoint. Set the base URL (empty means https://api.openai.com/v1, which needs the key below) or a local server’s, then the key.',
  'settings.media.baseUrl': 'Base URL',
  'settings.media.model': 'Model',
  'settings.media.speech': 'Text to speech',
  'settings.media.backend': 'Backend',
  'settings.media.backend.local': 'espeak-ng on this computer (offline)',
  'settings.media.backend.openai': 'OpenAI-compatible /audio/speech',
  'settings.media.backend.edge': 'Microsoft Edge read-aloud (not available)',
  'settings.media.voice': 'Voice',
  'settings.media.speechHint':
    'Local needs espeak-ng (Debian/Ubuntu: sudo apt-get install espeak-ng; macOS: brew install espeak-ng) and works offline. OpenAI: set the base URL (empty means https://api.openai.com/v1) and the key.',
  'settings.media.edgeHint':
    'Edge read-aloud has no public API; choose local or OpenAI instead.',
  'media.image': 'Generated image',
  'media.audio': 'Audio',
  'media.loadFailed': 'The file could not be shown: {error}',
} as const;
