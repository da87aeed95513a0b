/* The recursion study's CPU reference: path.h, compiled as C, at the pixels checked. */
#include "path_ref.h"

#include "path.h"

void path_ref_pixel(unsigned scene, unsigned width, unsigned height, unsigned spp, unsigned depth, unsigned pixel,
                    uint32_t *sum)
{
    path_pixel(scene, width, height, spp, depth, pixel, sum);
}

unsigned path_ref_checked(unsigned width, unsigned height, uint32_t *pixels)
{
    unsigned total = width * height;
    if (total <= PATH_REF_ALL_UP_TO) {
        for (unsigned p = 0; p < total; p++)
            pixels[p] = p;
        return total;
    }
    /* the corners, then distinct hashed pixels, sorted (an insertion keeps the list ordered) */
    uint32_t corners[] = {0, width - 1, total - width, total - 1};
    unsigned count = 0;
    for (unsigned i = 0; count < PATH_REF_SAMPLED; i++) {
        uint32_t pixel = i < 4 ? corners[i] : path_hash(i * 0x9e3779b9u) % total;
        unsigned at = count;
        while (at > 0 && pixels[at - 1] > pixel)
            at--;
        if (at > 0 && pixels[at - 1] == pixel)
            continue;
        for (unsigned j = count; j > at; j--)
            pixels[j] = pixels[j - 1];
        pixels[at] = pixel;
        count++;
    }
    return count;
}

void path_ref_expect(unsigned scene, unsigned width, unsigned height, unsigned spp, unsigned depth,
                     const uint32_t *pixels, unsigned count, uint32_t *expected)
{
    for (unsigned i = 0; i < count; i++)
        path_pixel(scene, width, height, spp, depth, pixels[i], expected + 3 * (size_t)i);
}

unsigned path_ref_compare(const uint32_t *image, unsigned width, const uint32_t *pixels, unsigned count,
                          const uint32_t *expected, const char *method, FILE *out, unsigned shown)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < count; i++) {
        const uint32_t *got = image + 3 * (size_t)pixels[i], *want = expected + 3 * (size_t)i;
        if (got[0] == want[0] && got[1] == want[1] && got[2] == want[2])
            continue;
        if (wrong++ < shown)
            fprintf(out, "%s: pixel (%u, %u): got %u %u %u, expected %u %u %u\n", method, pixels[i] % width,
                    pixels[i] / width, got[0], got[1], got[2], want[0], want[1], want[2]);
    }
    return wrong;
}

unsigned path_ref_byte(uint32_t sum, unsigned spp)
{
    float value = sqrtf((float)sum / (PATH_FIXED_ONE * (float)spp));
    return (unsigned)(256.0f * (value < 0.999f ? value : 0.999f));
}
