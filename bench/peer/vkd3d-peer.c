/*
 * The in-process peer of lift.bench.ts, dxil.bench.ts and dxil-lift.bench.ts (issue 17):
 * vkd3d-shader's DXBC (or DXIL) to SPIR-V, called through libvkd3d-shader in one process, so its rate
 * is the compiler's own and not that of a process start. bench/peer.ts builds it with the system's C
 * compiler against Debian's libvkd3d-dev, or against the vkd3d build IRIDIA_VKD3D_PREFIX names, and
 * runs it on the same files iridia is timed on.
 *
 *   vkd3d-peer PASSES [SOURCE [TARGET]] < LIST      (LIST: one container path a line)
 *
 * SOURCE is dxbc-tpf (the default: SM4/5 programs) or dxbc-dxil, which only a build defining
 * PEER_DXIL takes (bench/peer.ts defines it where the library's header names the DXIL source type;
 * vkd3d-shader 1.14 compiles DXIL only where the library itself was built with
 * -DVKD3D_SHADER_UNSUPPORTED_DXIL). TARGET is spirv-binary (the default) or d3d-asm, vkd3d's
 * disassembly, which only a build defining PEER_D3D_ASM takes (where the header names it).
 *
 * Every file is compiled once first in a child process (vkd3d-shader 1.2 aborts on an assertion for
 * some programs it does not handle); those it refuses or aborts on are counted and left out of the
 * timed passes, which run in this process. Then PASSES passes over the rest, each timed in CPU time of this process
 * (CLOCK_PROCESS_CPUTIME_ID) and in wall time (CLOCK_MONOTONIC). One JSON object on stdout:
 *   {"version": "...", "files": N, "failed": K, "ok": [0/1 a file, in input order],
 *    "cpu_ms": [a pass], "wall_ms": [a pass]}
 * Exit status 2 on a usage or input error (with a line on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <vkd3d_shader.h>

/* The types of every compile, from the command line (main). */
static enum vkd3d_shader_source_type source_type;
static enum vkd3d_shader_target_type target_type;

/* The source and target types the command line may name: those this build has. */
struct named_type
{
    const char *name;
    int value;
};

static const struct named_type sources[] =
{
    {"dxbc-tpf", VKD3D_SHADER_SOURCE_DXBC_TPF},
#ifdef PEER_DXIL
    {"dxbc-dxil", VKD3D_SHADER_SOURCE_DXBC_DXIL},
#endif
};

static const struct named_type targets[] =
{
    {"spirv-binary", VKD3D_SHADER_TARGET_SPIRV_BINARY},
#ifdef PEER_D3D_ASM
    {"d3d-asm", VKD3D_SHADER_TARGET_D3D_ASM},
#endif
};

/* The value of the type `name` among `count` `types`; -1 (with a line on stderr) where this build
 * has none of that name. */
static int lookup(const struct named_type *types, size_t count, const char *what, const char *name)
{
    size_t i;
    for (i = 0; i < count; ++i)
        if (!strcmp(types[i].name, name))
            return types[i].value;
    fprintf(stderr, "vkd3d-peer: %s type %s is not built in\n", what, name);
    return -1;
}

struct input
{
    char *bytes;
    size_t size;
    int ok;
};

static double now_ms(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int read_file(const char *path, struct input *in)
{
    FILE *f = fopen(path, "rb");
    long size;
    if (!f)
        return 0;
    if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
    {
        fclose(f);
        return 0;
    }
    in->size = (size_t)size;
    in->bytes = malloc(in->size ? in->size : 1);
    if (!in->bytes || fread(in->bytes, 1, in->size, f) != in->size)
    {
        fclose(f);
        return 0;
    }
    fclose(f);
    return 1;
}

/* One compile, as vkd3d-compiler does it by default (no options; SPIR-V for Vulkan 1.0); the output
 * is freed at once. */
static int compile(const struct input *in)
{
    struct vkd3d_shader_spirv_target_info spirv = {0};
    struct vkd3d_shader_compile_info info = {0};
    struct vkd3d_shader_code out = {0};
    char *messages = NULL;
    int rc;

    spirv.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    spirv.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.next = &spirv;
    info.source.code = in->bytes;
    info.source.size = in->size;
    info.source_type = source_type;
    info.target_type = target_type;
    info.log_level = VKD3D_SHADER_LOG_NONE;
    rc = vkd3d_shader_compile(&info, &out, &messages);
    vkd3d_shader_free_messages(messages);
    if (rc >= 0)
        vkd3d_shader_free_shader_code(&out);
    return rc >= 0;
}

int main(int argc, char **argv)
{
    struct input *inputs = NULL;
    size_t count = 0, cap = 0, ok = 0, i;
    char line[4096];
    int passes, p, source, target;

    if (argc < 2 || argc > 4 || (passes = atoi(argv[1])) < 1 || passes > 100)
    {
        fprintf(stderr, "usage: vkd3d-peer PASSES [dxbc-tpf|dxbc-dxil [spirv-binary|d3d-asm]] < LIST (PASSES 1 to 100)\n");
        return 2;
    }
    source = argc >= 3 ? lookup(sources, sizeof(sources) / sizeof(*sources), "source", argv[2])
            : VKD3D_SHADER_SOURCE_DXBC_TPF;
    target = argc == 4 ? lookup(targets, sizeof(targets) / sizeof(*targets), "target", argv[3])
            : VKD3D_SHADER_TARGET_SPIRV_BINARY;
    if (source < 0 || target < 0)
        return 2;
    source_type = source;
    target_type = target;
    while (fgets(line, sizeof(line), stdin))
    {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (!n)
            continue;
        if (count == cap)
        {
            cap = cap ? cap * 2 : 1024;
            if (!(inputs = realloc(inputs, cap * sizeof(*inputs))))
                return 2;
        }
        memset(&inputs[count], 0, sizeof(*inputs));
        if (!read_file(line, &inputs[count]))
        {
            fprintf(stderr, "vkd3d-peer: %s: cannot be read\n", line);
            return 2;
        }
        ++count;
    }
    /* The screening: a child process compiles the files in order from `i` on and writes one byte
     * a file (1 compiled, 0 refused); where it dies, the file it was on is counted as refused and a
     * new child goes on from the next one. */
    fflush(stdout);
    for (i = 0; i < count;)
    {
        int fds[2], status;
        unsigned char b;
        pid_t pid;
        if (pipe(fds) || (pid = fork()) < 0)
        {
            fprintf(stderr, "vkd3d-peer: cannot run a child process\n");
            return 2;
        }
        if (pid == 0)
        {
            close(fds[0]);
            if (!freopen("/dev/null", "w", stderr))
                _exit(3);
            for (; i < count; ++i)
            {
                b = (unsigned char)compile(&inputs[i]);
                if (write(fds[1], &b, 1) != 1)
                    _exit(3);
            }
            _exit(0);
        }
        close(fds[1]);
        while (i < count && read(fds[0], &b, 1) == 1)
            ok += (inputs[i++].ok = b);
        close(fds[0]);
        waitpid(pid, &status, 0);
        if (i < count)
            inputs[i++].ok = 0; /* the child died on it */
    }
    printf("{\"version\": \"%s\", \"files\": %zu, \"failed\": %zu, \"ok\": [", vkd3d_shader_get_version(NULL, NULL),
            ok, count - ok);
    for (i = 0; i < count; ++i)
        printf("%s%d", i ? ", " : "", inputs[i].ok);
    printf("], \"cpu_ms\": [");
    {
        double wall[100];
        for (p = 0; p < passes; ++p)
        {
            double c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID), w0 = now_ms(CLOCK_MONOTONIC);
            for (i = 0; i < count; ++i)
                if (inputs[i].ok)
                    compile(&inputs[i]);
            wall[p] = now_ms(CLOCK_MONOTONIC) - w0;
            printf("%s%.3f", p ? ", " : "", now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0);
        }
        printf("], \"wall_ms\": [");
        for (p = 0; p < passes; ++p)
            printf("%s%.3f", p ? ", " : "", wall[p]);
    }
    printf("]}\n");
    return 0;
}
