// poppler-glib (PDF text and page rendering), cairo (PDF surfaces) and pango (text layout) for Swift.
//
// One module for the three because they share GLib/cairo types: a poppler page renders onto a
// cairo context that pango also draws on (DESIGN.md section 9).
// https://poppler.freedesktop.org/api/glib/ , https://www.cairographics.org/manual/ ,
// https://docs.gtk.org/Pango/

#ifndef CPHRPOPPLER_SHIM_H
#define CPHRPOPPLER_SHIM_H

#include <cairo-pdf.h>
#include <cairo.h>
#include <glib-object.h>
#include <glib.h>
#include <pango/pangocairo.h>
#include <poppler.h>

#endif
