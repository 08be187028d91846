// A member's picture (web/src/people/me.rs): the chosen image file, cropped
// to a square from its centre and drawn at 96 px as a JPEG data URL, small
// enough to travel in the member's profile (core/src/model/profile.rs).

const SIZE = 96;

/** The picture of `file` as a data URL, or '' when it is not an image the browser reads. */
export async function pictureOf(file) {
  try {
    const bitmap = await createImageBitmap(file);
    const side = Math.min(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = SIZE;
    canvas.height = SIZE;
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, SIZE, SIZE);
    context.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, SIZE, SIZE);
    bitmap.close();
    return canvas.toDataURL('image/jpeg', 0.85);
  } catch {
    return '';
  }
}
