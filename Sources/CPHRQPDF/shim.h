// libqpdf's C API for Swift: reads a PDF from memory and writes it back encrypted, in memory.
//
// phr uses it for one thing: AES-256 encryption of share bundles with the PDF 2.0 security
// handler (revision 6), so that the plaintext bundle never has to be written to a disk.
// https://qpdf.readthedocs.io/en/stable/design.html#c-api , /usr/include/qpdf/qpdf-c.h

#ifndef CPHRQPDF_SHIM_H
#define CPHRQPDF_SHIM_H

#include <qpdf/qpdf-c.h>

#endif
