// Tesseract 5's C API (OCR), leptonica (the images Tesseract reads: decoding, rotation, deskew,
// scaling) and libheif (HEIC/HEIF photos from phones), for phr-render only: the phr process, which
// holds the keys, never loads them (the ldd test in VaultCommandTests).
// https://tesseract-ocr.github.io/tessapi/5.x/a02438.html (capi.h), http://www.leptonica.org/ ,
// https://github.com/strukturag/libheif
//
// libtesseract links libcurl because it accepts URLs as image names: phr hands it decoded pixels
// only (TessBaseAPISetImage2), never a name.

#ifndef CPHRTESSERACT_SHIM_H
#define CPHRTESSERACT_SHIM_H

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#include <libheif/heif.h>

#endif
