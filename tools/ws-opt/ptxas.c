/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ptxas.c: PTX to cubin through the toolkit's ptxas (see ptxas.h). */
#define _POSIX_C_SOURCE 200809L
#include "ptxas.h"
#include "text_buffer.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The value after `key` ("chip = \"", "O = ") in the target's text, up to
 * a quote, comma or '>' (into out, cap bytes); false when absent. */
static bool target_field(const char *text, const char *key, char *out, size_t cap) {
  const char *at = strstr(text, key);
  if (!at)
    return false;
  at += strlen(key);
  size_t n = strcspn(at, "\",>");
  if (n == 0 || n >= cap)
    return false;
  memcpy(out, at, n);
  out[n] = '\0';
  return true;
}

/* Writes len bytes to a new temporary file named into path (a mkstemp
 * template); false on failure. */
static bool write_temp(char *path, const char *data, size_t len) {
  int fd = mkstemp(path);
  if (fd < 0)
    return false;
  FILE *f = fdopen(fd, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  if (f)
    ok = fclose(f) == 0 && ok;
  else
    close(fd);
  return ok;
}

/* The whole of a file, malloc'd; NULL on failure. */
static unsigned char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  unsigned char *data = NULL;
  long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (size > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size)) &&
      fread(data, 1, (size_t)size, f) != (size_t)size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *len = data ? (size_t)size : 0;
  return data;
}

/* Runs argv (argv[0] a path, or a name looked up in PATH) with its stdout
 * and stderr into log_path; its exit status, or -1. */
static int run_tool(char *const argv[], const char *log_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid;
  int status = -1;
  int r = strchr(argv[0], '/') ? posix_spawn(&pid, argv[0], &actions, NULL, argv, environ)
                               : posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (r != 0 || waitpid(pid, &status, 0) != pid)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool ptxas_assemble(MlirAttribute target, const char *cuda_root, const char *ptx, size_t len,
                    unsigned char **cubin, size_t *cubin_len) {
  text_buffer t = {.len = 0};
  t.data[0] = '\0';
  mlirAttributePrint(target, text_buffer_append, &t);
  char chip[32], level[8] = "2"; /* NVVM's default O */
  if (!target_field(t.data, "chip = \"", chip, sizeof chip)) {
    fprintf(stderr, "ws-opt: error: no chip in the kernel's target %s\n", t.data);
    return false;
  }
  target_field(t.data, "O = ", level, sizeof level);
  char ptx_path[] = "/tmp/ws-opt-XXXXXX", out_path[] = "/tmp/ws-opt-XXXXXX",
       log_path[] = "/tmp/ws-opt-XXXXXX";
  bool ok =
      write_temp(ptx_path, ptx, len) && write_temp(out_path, "", 0) && write_temp(log_path, "", 0);
  char tool[1024];
  snprintf(tool, sizeof tool, "%s/bin/ptxas", cuda_root);
  if (access(tool, X_OK) != 0)
    snprintf(tool, sizeof tool, "ptxas");
  char *argv[] = {tool, "-arch", chip, ptx_path, "-o", out_path, "--opt-level", level, NULL};
  int status = ok ? run_tool(argv, log_path) : -1;
  *cubin = status == 0 ? read_all(out_path, cubin_len) : NULL;
  if (!*cubin) {
    size_t log_len = 0;
    unsigned char *log = ok ? read_all(log_path, &log_len) : NULL;
    fprintf(stderr, "ws-opt: error: ptxas (%s -arch %s --opt-level %s) failed%s%.*s\n", tool, chip,
            level, log_len ? ":\n" : "", (int)log_len, log ? (const char *)log : "");
    free(log);
  }
  unlink(ptx_path);
  unlink(out_path);
  unlink(log_path);
  return *cubin != NULL;
}
