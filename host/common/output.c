/* The files a program writes (output.h). */
#include "output.h"

#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>

static void remove_and_resend(int signal_number)
{
    coop_outfile_remove_temporaries();
    /* SA_RESETHAND restored the default action: resent, the signal ends the process with its
     * usual status */
    raise(signal_number);
}

void output_catch_signals(void)
{
    static const int signals[] = {SIGHUP, SIGINT, SIGPIPE, SIGTERM};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
        struct sigaction old, action = {.sa_handler = remove_and_resend, .sa_flags = SA_RESETHAND};
        sigemptyset(&action.sa_mask);
        /* one ignored by whoever started the program (nohup, a background job) stays ignored */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &action, NULL);
    }
}

static int report(const coop_outfile *file, const char *program, int error)
{
    if (error == ENOMEM) {
        /* as every other shortage of memory is told, whichever file was being opened */
        fprintf(stderr, "%s: out of memory\n", program);
        return CLI_EXIT_ERROR;
    }
    char reason[256];
    fprintf(stderr, "%s: cannot write %s: %s\n", program, file->path,
            coop_outfile_reason(file, error, reason, sizeof reason));
    return CLI_EXIT_ERROR;
}

int output_open(coop_outfile *file, const char *program, const char *path)
{
    int error = coop_outfile_open(file, path);
    return error ? report(file, program, error) : 0;
}

int output_close(coop_outfile *file, const char *program)
{
    int error = coop_outfile_close(file);
    return error ? report(file, program, error) : 0;
}

int output_commit(coop_outfile *file, const char *program)
{
    int error = coop_outfile_commit(file);
    return error ? report(file, program, error) : 0;
}
