#ifndef QUAKEMAP_CLIBXML2_SHIM_H
#define QUAKEMAP_CLIBXML2_SHIM_H
// Debian builds libxml2 with ICU, and its headers then include ICU's, which
// are not on the module's search path; nothing here uses ICU's encodings.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
