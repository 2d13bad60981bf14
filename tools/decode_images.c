// decode_images: vit.h's decoded pixels for tools/diff_images_pil.py.
//   cc -O1 -g -fsanitize=address,undefined -I. tools/decode_images.c -o build/decode_images -lm
//   build/decode_images MODEL LIST OUT   decodes each file named in LIST (one a line) to
//                                        OUT/<i>.rgb (h, w, 3) and prints "i status w h message"
#define VIT_IMPLEMENTATION
#include "vit.h"
#include <stdio.h>
int main(int argc, char **argv) {
    vit_model *m; if (vit_load(argv[1], NULL, &m)) return 2;
    char line[1024]; int i = 0;
    FILE *list = fopen(argv[2], "r");
    while (fgets(line, sizeof line, list)) {
        line[strcspn(line, "\n")] = 0;
        FILE *f = fopen(line, "rb"); static unsigned char buf[1 << 20]; size_t n = fread(buf, 1, sizeof buf, f); fclose(f);
        unsigned char *copy = (unsigned char *)malloc(n ? n : 1); memcpy(copy, buf, n);
        unsigned char *px = NULL; int w = 0, h = 0, ch = 0, stb = 0;
        vit_status st = n ? vit__decode_image(m, copy, n, &px, &w, &h, &ch, &stb) : VIT_ERROR_INVALID_ARGUMENT;
        if (st == VIT_OK) {
            char p[1100]; snprintf(p, sizeof p, "%s/%d.rgb", argv[3], i);
            FILE *o = fopen(p, "wb");
            for (size_t k = 0; k < (size_t)w * h; k++) for (int c = 0; c < 3; c++) fputc(px[k * ch + (ch == 1 ? 0 : c)], o);
            fclose(o);
            if (stb) stbi_image_free(px); else free(px);
        }
        const char *e = st ? vit_last_error(m) : "";
        printf("%d %d %d %d ", i, st, w, h);
        for (; *e; e++) putchar(*e >= 32 && *e < 127 ? *e : '?'); // stb's messages may carry raw chunk names
        putchar('\n');
        free(copy); i++;
    }
    vit_free(m); return 0;
}
