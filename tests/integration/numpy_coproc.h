/*
 * numpy_coproc.h — a Debian /usr/bin/python3 process running a test's numpy
 * reference script, fed on its stdin and answering on its stdout (the FFT
 * tests' independent reference). Include after cmocka.h.
 */
#ifndef TRN_TESTS_NUMPY_COPROC_H
#define TRN_TESTS_NUMPY_COPROC_H

#include <fcntl.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Writes script_text to dir/ref.py and starts it; its pipe ends close on
 * exec in this process's other children. */
static void numpy_coproc_start(const char *dir, const char *script_text, FILE **in, FILE **out,
                               pid_t *pid) {
    char script[256];
    snprintf(script, sizeof(script), "%s/ref.py", dir);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fputs(script_text, f);
    fclose(f);
    int to[2], from[2];
    assert_int_equal(pipe2(to, O_CLOEXEC), 0);
    assert_int_equal(pipe2(from, O_CLOEXEC), 0);
    *pid = fork();
    assert_true(*pid >= 0);
    if (*pid == 0) {
        dup2(to[0], STDIN_FILENO); /* dup2 clears close-on-exec */
        dup2(from[1], STDOUT_FILENO);
        execl("/usr/bin/python3", "/usr/bin/python3", script, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    *in = fdopen(to[1], "w");
    *out = fdopen(from[0], "r");
    assert_non_null(*in);
    assert_non_null(*out);
}

/* Ends it (end of input), if it was started. */
static void numpy_coproc_stop(FILE **in, FILE **out, pid_t pid) {
    if (!*in)
        return;
    fclose(*in);
    fclose(*out);
    waitpid(pid, NULL, 0);
    *in = *out = NULL;
}

#endif
