// vit.h as a shared library (CMake's VIT_SHARED_LIBRARY, target vit::shared): the
// implementation with VIT_SHARED, which CMake defines here and for its users.
#define VIT_IMPLEMENTATION
#include "../vit.h"
