// zlib for Swift: gzip decoding of HTTP bodies. `inflateInit2` is a macro, wrapped here.
// https://www.zlib.net/manual.html
#ifndef CPHRZLIB_SHIM_H
#define CPHRZLIB_SHIM_H

#include <zlib.h>

/// Prepares `stream` (zeroed by the caller) to inflate a gzip stream. Returns Z_OK on success.
static inline int phr_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 16 + MAX_WBITS);
}

#endif
