// A consumer of an installed (or add_subdirectory'd) vit.h: classifies one image and
// checks its top class. Built by `make test-install` through CMake's find_package(vit),
// add_subdirectory(vit) and pkg-config.
//   usage: consumer MODEL.safetensors IMAGE LABEL   (exit 0 when the top class is LABEL)
#define VIT_IMPLEMENTATION
#include <vit.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s model.safetensors image label\n", argv[0]); return 2; }
    vit_model *model = NULL;
    vit_status st = vit_load(argv[1], NULL, &model);
    if (st != VIT_OK) {
        fprintf(stderr, "load: %s: %s\n", vit_status_string(st), vit_last_error(NULL));
        return 1;
    }
    int cls = -1;
    float prob = 0;
    st = vit_classify_file(model, argv[2], 1, &cls, &prob);
    int ok = st == VIT_OK && strcmp(vit_label(model, cls), argv[3]) == 0;
    if (st != VIT_OK) fprintf(stderr, "classify: %s: %s\n", vit_status_string(st), vit_last_error(model));
    else printf("%s: %.2f%% %s (want %s; vit.h %s, %s)\n", ok ? "OK" : "NOT OK", 100 * prob, vit_label(model, cls),
                argv[3], VIT_VERSION_STRING, vit_model_config(model)->openmp ? "OpenMP" : "no OpenMP");
    vit_free(model);
    return ok ? 0 : 1;
}
