// The scanning helpers are inline functions in include/byte_scan.h; SwiftPM
// needs a source file to build the target.
#include "byte_scan.h"
