// libxml2 for phr-render only: C-CDA documents and Apple Health exports are untrusted XML, read
// in the sandboxed worker, never in the process that holds the keys. Callers must turn off
// entity substitution, DTD loading and network access (XML_PARSE_NONET, no XML_PARSE_NOENT, no
// XML_PARSE_DTDLOAD) and bound depth and size.
// https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-xmlreader.html

#ifndef CPHRXML_SHIM_H
#define CPHRXML_SHIM_H

// Debian builds libxml2 with ICU, so encoding.h would pull in ICU's headers, whose UErrorCode
// clashes with the Swift runtime's own copy of ICU (_FoundationICU) in any compile job that also
// imports Foundation. phr never touches the ICU converter fields (they end
// xmlCharEncodingHandler, which phr only handles by pointer), so they are left out here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>

#endif
