// The library as a DLL / shared object (make test-dll): vit.h's implementation
// with VIT_SHARED (given on the command line), its API exported.
#define VIT_IMPLEMENTATION
#include "../../vit.h"
