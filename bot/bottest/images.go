package bottest

// Images tests attach to messages: the magic number of each kind docsbot
// takes, then bytes that differ by kind and name, so that a test can check
// that the exact bytes of one file arrived.
var imageMagic = map[string]string{
	"image/png":  "\x89PNG\r\n\x1a\n",
	"image/jpeg": "\xff\xd8\xff\xe0",
	"image/gif":  "GIF89a",
	"image/webp": "RIFF\x24\x00\x00\x00WEBPVP8 ",
}

// Image is a small file of the media type (image/png, image/jpeg,
// image/gif or image/webp) whose bytes after the magic number are name's,
// with bytes no text has (0x00, 0xff).
func Image(mediaType, name string) []byte {
	magic, ok := imageMagic[mediaType]
	if !ok {
		panic("bottest: no image of type " + mediaType)
	}
	return append([]byte(magic+name), 0x00, 0xff, 0x01)
}
