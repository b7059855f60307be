/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef IDLELAB_CLI_H
#define IDLELAB_CLI_H

struct idl_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* One entry point per subcommand (cli/cmd-NAME.c). */
#define IDL_CMD(name) int name(int argc, char **argv)
IDL_CMD(cmd_states);
IDL_CMD(cmd_decide);
IDL_CMD(cmd_record);
IDL_CMD(cmd_import);
IDL_CMD(cmd_synth);
IDL_CMD(cmd_info);
IDL_CMD(cmd_replay);
IDL_CMD(cmd_live);
IDL_CMD(cmd_compare);
IDL_CMD(cmd_report);
IDL_CMD(cmd_governor);
IDL_CMD(cmd_sweep);
IDL_CMD(cmd_merge);
#undef IDL_CMD

#endif /* IDLELAB_CLI_H */
