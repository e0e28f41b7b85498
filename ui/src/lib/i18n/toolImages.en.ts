// English strings for the images on tool cards.
export const toolImagesEn = {
  'toolImages.open': 'Open {name} full size',
  'toolImages.close': 'Close the image',
  'toolImages.unnamed': 'image',
} as const;
