// Simplified Chinese strings for the images on tool cards.
export const toolImagesZhCN = {
  'toolImages.open': '查看 {name} 原图',
  'toolImages.close': '关闭图片',
  'toolImages.unnamed': '图片',
} as const;
