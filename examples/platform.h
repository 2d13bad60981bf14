// platform.h -- the little of the operating system that the example programs need,
// on POSIX (Linux, macOS) and on Windows (MSVC, clang-cl, MinGW-w64): threads, a
// directory walk, a monotonic clock, terminal detection, the CPU count, files by
// UTF-8 path, and UTF-8 command-line arguments. Not part of vit.h (which needs none
// of it); a header of static functions, C99 and C++.
//
// Include it first, before vit.h and the C headers: it asks POSIX for its 2008
// declarations, and MinGW for C99 printf (%zu; __USE_MINGW_ANSI_STDIO).
//
// Paths are UTF-8 everywhere, as vit.h's are. On Windows they go through the wide
// API (UTF-16), so that a name outside the ANSI code page opens; plat_args gives
// main the command line as UTF-8 and sets a console's output to UTF-8.
//
//   plat_args(&argc, &argv)          first thing in main (Windows: the UTF-8 argv)
//   plat_thread t; plat_thread_start(&t, fn, arg) == 0; plat_thread_join(&t);
//   plat_mutex, plat_cond            _init, _lock/_unlock, _wait/_broadcast, _destroy
//   plat_seconds()                   a monotonic clock, in seconds
//   plat_isatty(fd)                  1 when fd (1 stdout, 2 stderr) is a terminal
//   plat_cpu_count()                 the online CPUs (Windows: of the process's group)
//   plat_fopen(path, mode), plat_remove(path)
//   plat_path_kind(path)             PLAT_DIR, PLAT_DIR_LINK (a link to a directory:
//                                    Windows' directory symlinks and junctions), PLAT_FILE
//                                    (anything else, a link to one included), or
//                                    PLAT_MISSING (errno says why)
//   plat_dir d; plat_dir_open(&d, path) == 0; while ((name = plat_dir_next(&d))) ...;
//   plat_dir_close(&d)               the entries' names without "." and "..";
//                                    NULL with errno 0 at the end, errno set on an error
//   return plat_exit(status);        main's last return (MinGW-w64 with OpenMP: see there)
//
// Failures set errno, so strerror(errno) describes them on both systems.
#ifndef PLATFORM_H_INCLUDED
#define PLATFORM_H_INCLUDED

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L // clock_gettime, pthreads, dirent, lstat
#endif
#if defined(__MINGW32__) && !defined(__USE_MINGW_ANSI_STDIO)
#define __USE_MINGW_ANSI_STDIO 1 // C99 printf: msvcrt's has no %zu
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define PLAT_UNUSED __attribute__((unused))
#else
#define PLAT_UNUSED
#endif

#ifdef _WIN32
#define PLAT_WINDOWS 1 // '\\' separates a path's names too
#else
#define PLAT_WINDOWS 0
#endif

#define PLAT_MISSING (-1)
#define PLAT_FILE 0
#define PLAT_DIR 1
#define PLAT_DIR_LINK 2

#ifdef _WIN32
// ---------------------------------------------------------------------------
// Windows
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <shellapi.h> // CommandLineToArgvW
#include <io.h>       // _isatty
#include <process.h>  // _beginthreadex
#if defined(_MSC_VER)
#pragma comment(lib, "shell32.lib")
#endif

#if defined(__MINGW32__) && defined(_OPENMP)
#include <pthread.h> // winpthreads: see plat_thread_start
#include <omp.h>      // omp_pause_resource_all: see plat_exit
#include <tlhelp32.h> // CreateToolhelp32Snapshot: see plat_exit
typedef struct plat_thread { pthread_t t; } plat_thread;
#else
typedef struct plat_thread { HANDLE h; void *(*fn)(void *); void *arg; } plat_thread;
#endif
typedef CRITICAL_SECTION plat_mutex;
typedef CONDITION_VARIABLE plat_cond;
typedef struct plat_dir {
    HANDLE h;
    WIN32_FIND_DATAW e;
    int have;           // e holds an entry not yet returned
    char name[4 * MAX_PATH]; // e's name as UTF-8
} plat_dir;

// errno for the Win32 error e (the few a file program meets; EIO for the rest)
static int plat__errno(DWORD e) {
    switch (e) {
    case ERROR_FILE_NOT_FOUND: case ERROR_PATH_NOT_FOUND: case ERROR_INVALID_NAME: case ERROR_BAD_NETPATH: return ENOENT;
    case ERROR_ACCESS_DENIED: case ERROR_SHARING_VIOLATION: return EACCES;
    case ERROR_DIRECTORY: return ENOTDIR;
    case ERROR_NOT_ENOUGH_MEMORY: case ERROR_OUTOFMEMORY: return ENOMEM;
    case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
    default: return EIO;
    }
}

// UTF-8 s as UTF-16, malloc'd (free it); NULL with errno set when it is not UTF-8
static wchar_t *plat__wide(const char *s) {
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? (wchar_t *)malloc((size_t)n * sizeof(wchar_t)) : NULL;
    if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) == n) return w;
    free(w);
    errno = n > 0 ? ENOMEM : EINVAL;
    return NULL;
}

// UTF-16 w as UTF-8, malloc'd; NULL when out of memory
static char *plat__utf8(const wchar_t *w) {
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    char *s = n > 0 ? (char *)malloc((size_t)n) : NULL;
    if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) == n) return s;
    free(s);
    return NULL;
}

static UINT plat__console_cp;
static void plat__restore_console(void) { SetConsoleOutputCP(plat__console_cp); }

// The command line as UTF-8 (the CRT's argv is in the ANSI code page: a name
// outside it would arrive as '?'); a console's output set to UTF-8 (and restored
// at exit) and to ANSI escape sequences (the progress line). Returns 0, or -1
// when out of memory (argc, argv then unchanged).
PLAT_UNUSED static int plat_args(int *argc, char ***argv) {
    DWORD mode;
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE), err = GetStdHandle(STD_ERROR_HANDLE);
    int out_con = GetConsoleMode(out, &mode), err_con = GetConsoleMode(err, &mode);
    if (out_con || err_con) {
        plat__console_cp = GetConsoleOutputCP();
        if (plat__console_cp != CP_UTF8 && SetConsoleOutputCP(CP_UTF8)) atexit(plat__restore_console);
    }
    if (out_con && GetConsoleMode(out, &mode)) SetConsoleMode(out, mode | 0x0004 /* ENABLE_VIRTUAL_TERMINAL_PROCESSING */);
    if (err_con && GetConsoleMode(err, &mode)) SetConsoleMode(err, mode | 0x0004);
    int n = 0;
    wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
    if (!w) return -1;
    char **v = (char **)malloc((size_t)(n + 1) * sizeof(char *));
    for (int i = 0; v && i < n; i++)
        if (!(v[i] = plat__utf8(w[i]))) { while (i--) free(v[i]); free(v); v = NULL; }
    LocalFree(w);
    if (!v) return -1;
    v[n] = NULL;
    *argc = n;
    *argv = v; // kept for the program's life
    return 0;
}

#if defined(__MINGW32__) && defined(_OPENMP)
// Wine (its ntdll exports wine_get_version): the place where a process must not
// end while its other threads do (see plat_exit)
static int plat__under_wine(void) {
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    return ntdll && GetProcAddress(ntdll, "wine_get_version") != NULL;
}
// the threads of this process other than the caller (-1: the snapshot failed)
static int plat__other_threads(void) {
    HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    if (snap == INVALID_HANDLE_VALUE) return -1;
    THREADENTRY32 te;
    te.dwSize = sizeof(te);
    DWORD pid = GetCurrentProcessId(), me = GetCurrentThreadId();
    int n = 0;
    if (Thread32First(snap, &te))
        do n += te.th32OwnerProcessID == pid && te.th32ThreadID != me;
        while (Thread32Next(snap, &te));
    CloseHandle(snap);
    return n;
}
#endif

// main's end. MinGW-w64 with OpenMP: libgomp keeps a pool of threads per thread
// that ran OpenMP regions (the workers' pools are told to end as the workers end),
// and the process must not end while they run: its static destructors
// (pthread_key_delete) deadlocked in winpthreads with the idle pool threads
// (about 1 run in 100 under Wine 8), and under Wine a process that ended while
// they did crashed (_exit or TerminateProcess: SIGSEGV after the last output,
// about 1 run in 1,000 under load). So: stdio flushed and the console restored,
// the caller's pool ended (omp_pause_resource_all), under Wine the other threads
// waited for (at most 2 s), and the process ended there, without the static
// destructors. (Windows keeps loader threads of its own in a process,
// so only under Wine can "no other thread" be waited for.)
PLAT_UNUSED static int plat_exit(int status) {
#if defined(__MINGW32__) && defined(_OPENMP)
    fflush(NULL);
    if (plat__console_cp) plat__restore_console();
    omp_pause_resource_all(omp_pause_hard);
    if (plat__under_wine())
        for (int ms = 0; ms < 2000 && plat__other_threads() > 0; ms++) Sleep(1);
    TerminateProcess(GetCurrentProcess(), (UINT)status);
    _exit(status); // (not reached)
#endif
    return status;
}

#if defined(__MINGW32__) && defined(_OPENMP)
// MinGW's libgomp keeps each thread's OpenMP state in winpthreads'
// thread-specific data; threads started by _beginthreadex that ran OpenMP
// regions corrupted the heap (vit-classify under Wine: a file name in --embed's
// header cut short, or a crash in free, about 1 run in 8). Threads winpthreads
// starts itself do not.
PLAT_UNUSED static int plat_thread_start(plat_thread *t, void *(*fn)(void *), void *arg) { return pthread_create(&t->t, NULL, fn, arg) ? -1 : 0; }
PLAT_UNUSED static void plat_thread_join(plat_thread *t) { pthread_join(t->t, NULL); }
#else
static unsigned __stdcall plat__thread_main(void *p) {
    plat_thread *t = (plat_thread *)p;
    t->fn(t->arg);
    return 0;
}
// t must stay where it is until plat_thread_join (the thread reads it as it starts)
PLAT_UNUSED static int plat_thread_start(plat_thread *t, void *(*fn)(void *), void *arg) {
    t->fn = fn;
    t->arg = arg;
    t->h = (HANDLE)_beginthreadex(NULL, 0, plat__thread_main, t, 0, NULL);
    return t->h ? 0 : -1;
}
PLAT_UNUSED static void plat_thread_join(plat_thread *t) { WaitForSingleObject(t->h, INFINITE); CloseHandle(t->h); }
#endif
PLAT_UNUSED static void plat_mutex_init(plat_mutex *m) { InitializeCriticalSection(m); }
PLAT_UNUSED static void plat_mutex_destroy(plat_mutex *m) { DeleteCriticalSection(m); }
PLAT_UNUSED static void plat_mutex_lock(plat_mutex *m) { EnterCriticalSection(m); }
PLAT_UNUSED static void plat_mutex_unlock(plat_mutex *m) { LeaveCriticalSection(m); }
PLAT_UNUSED static void plat_cond_init(plat_cond *c) { InitializeConditionVariable(c); }
PLAT_UNUSED static void plat_cond_destroy(plat_cond *c) { (void)c; }
PLAT_UNUSED static void plat_cond_wait(plat_cond *c, plat_mutex *m) { SleepConditionVariableCS(c, m, INFINITE); }
PLAT_UNUSED static void plat_cond_broadcast(plat_cond *c) { WakeAllConditionVariable(c); }

PLAT_UNUSED static double plat_seconds(void) {
    static LARGE_INTEGER freq;
    LARGE_INTEGER t;
    if (!freq.QuadPart) QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&t);
    return (double)t.QuadPart / (double)freq.QuadPart;
}

PLAT_UNUSED static int plat_isatty(int fd) { return _isatty(fd) != 0; }

PLAT_UNUSED static int plat_cpu_count(void) {
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (int)si.dwNumberOfProcessors;
}

PLAT_UNUSED static FILE *plat_fopen(const char *path, const char *mode) {
    wchar_t *w = plat__wide(path), *m = plat__wide(mode);
    FILE *f = w && m ? _wfopen(w, m) : NULL;
    free(w);
    free(m);
    return f;
}

PLAT_UNUSED static int plat_remove(const char *path) {
    wchar_t *w = plat__wide(path);
    int r = w ? _wremove(w) : -1;
    free(w);
    return r;
}

PLAT_UNUSED static int plat_path_kind(const char *path) {
    wchar_t *w = plat__wide(path);
    if (!w) return PLAT_MISSING;
    DWORD a = GetFileAttributesW(w);
    DWORD e = GetLastError();
    free(w);
    if (a == INVALID_FILE_ATTRIBUTES) { errno = plat__errno(e); return PLAT_MISSING; }
    if (!(a & FILE_ATTRIBUTE_DIRECTORY)) return PLAT_FILE;
    return a & FILE_ATTRIBUTE_REPARSE_POINT ? PLAT_DIR_LINK : PLAT_DIR;
}

PLAT_UNUSED static int plat_dir_open(plat_dir *d, const char *path) {
    size_t n = strlen(path);
    char *pattern = (char *)malloc(n + 3);
    if (!pattern) { errno = ENOMEM; return -1; }
    memcpy(pattern, path, n);
    if (n && path[n - 1] != '/' && path[n - 1] != '\\') pattern[n++] = '\\';
    pattern[n++] = '*';
    pattern[n] = 0;
    wchar_t *w = plat__wide(pattern);
    free(pattern);
    if (!w) return -1;
    d->h = FindFirstFileW(w, &d->e);
    DWORD e = GetLastError();
    free(w);
    d->have = d->h != INVALID_HANDLE_VALUE;
    if (!d->have && e != ERROR_FILE_NOT_FOUND) { errno = plat__errno(e); return -1; } // (FILE_NOT_FOUND: nothing in it)
    return 0;
}

PLAT_UNUSED static const char *plat_dir_next(plat_dir *d) {
    for (;;) {
        errno = 0;
        if (!d->have) {
            if (d->h == INVALID_HANDLE_VALUE) return NULL;
            if (!FindNextFileW(d->h, &d->e)) {
                DWORD e = GetLastError();
                if (e != ERROR_NO_MORE_FILES) errno = plat__errno(e);
                return NULL;
            }
        }
        d->have = 0;
        const wchar_t *n = d->e.cFileName;
        if (n[0] == L'.' && (!n[1] || (n[1] == L'.' && !n[2]))) continue;
        if (!WideCharToMultiByte(CP_UTF8, 0, n, -1, d->name, (int)sizeof(d->name), NULL, NULL)) { errno = ENAMETOOLONG; return NULL; }
        return d->name;
    }
}

PLAT_UNUSED static void plat_dir_close(plat_dir *d) {
    if (d->h != INVALID_HANDLE_VALUE) FindClose(d->h);
}

#else
// ---------------------------------------------------------------------------
// POSIX
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct plat_thread { pthread_t t; } plat_thread;
typedef pthread_mutex_t plat_mutex;
typedef pthread_cond_t plat_cond;
typedef struct plat_dir { DIR *d; } plat_dir;

PLAT_UNUSED static int plat_args(int *argc, char ***argv) { (void)argc; (void)argv; return 0; } // already UTF-8 (the locale's bytes)
PLAT_UNUSED static int plat_exit(int status) { return status; }
PLAT_UNUSED static int plat_thread_start(plat_thread *t, void *(*fn)(void *), void *arg) { return pthread_create(&t->t, NULL, fn, arg) ? -1 : 0; }
PLAT_UNUSED static void plat_thread_join(plat_thread *t) { pthread_join(t->t, NULL); }
PLAT_UNUSED static void plat_mutex_init(plat_mutex *m) { pthread_mutex_init(m, NULL); }
PLAT_UNUSED static void plat_mutex_destroy(plat_mutex *m) { pthread_mutex_destroy(m); }
PLAT_UNUSED static void plat_mutex_lock(plat_mutex *m) { pthread_mutex_lock(m); }
PLAT_UNUSED static void plat_mutex_unlock(plat_mutex *m) { pthread_mutex_unlock(m); }
PLAT_UNUSED static void plat_cond_init(plat_cond *c) { pthread_cond_init(c, NULL); }
PLAT_UNUSED static void plat_cond_destroy(plat_cond *c) { pthread_cond_destroy(c); }
PLAT_UNUSED static void plat_cond_wait(plat_cond *c, plat_mutex *m) { pthread_cond_wait(c, m); }
PLAT_UNUSED static void plat_cond_broadcast(plat_cond *c) { pthread_cond_broadcast(c); }

PLAT_UNUSED static double plat_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

PLAT_UNUSED static int plat_isatty(int fd) { return isatty(fd); }
PLAT_UNUSED static int plat_cpu_count(void) { return (int)sysconf(_SC_NPROCESSORS_ONLN); }
PLAT_UNUSED static FILE *plat_fopen(const char *path, const char *mode) { return fopen(path, mode); }
PLAT_UNUSED static int plat_remove(const char *path) { return remove(path); }

PLAT_UNUSED static int plat_path_kind(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return PLAT_MISSING;
    if (S_ISDIR(st.st_mode)) return PLAT_DIR;
    if (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return PLAT_DIR_LINK;
    return PLAT_FILE; // a broken link too: tried, and reported by what opens it
}

PLAT_UNUSED static int plat_dir_open(plat_dir *d, const char *path) { return (d->d = opendir(path)) ? 0 : -1; }

PLAT_UNUSED static const char *plat_dir_next(plat_dir *d) {
    for (;;) {
        errno = 0;
        struct dirent *e = readdir(d->d);
        if (!e) return NULL;
        const char *n = e->d_name;
        if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]))) continue;
        return n;
    }
}

PLAT_UNUSED static void plat_dir_close(plat_dir *d) { closedir(d->d); }
#endif

#endif // PLATFORM_H_INCLUDED
