package testutil

import "os"

// IndexStorageEnv names the environment variable that chooses where the
// test servers keep their indexes: MINIPG_TEST_INDEX_STORAGE=memory starts
// every engine the test harnesses open (executor, server, regress,
// crashtest) with index_storage=memory; unset, they run with the server's
// default, disk. Tests of one storage in particular set index_storage
// themselves, whatever the variable says.
const IndexStorageEnv = "MINIPG_TEST_INDEX_STORAGE"

// IndexStorage returns the index_storage the tests run with ("" when the
// environment does not choose: the server's default, disk).
func IndexStorage() string { return os.Getenv(IndexStorageEnv) }

// IndexStorageSettings adds index_storage to settings (an engine's
// -c name=value map, created when nil) when the environment chooses it.
func IndexStorageSettings(settings map[string]string) map[string]string {
	v := IndexStorage()
	if v == "" {
		return settings
	}
	if settings == nil {
		settings = map[string]string{}
	}
	if _, ok := settings["index_storage"]; !ok {
		settings["index_storage"] = v
	}
	return settings
}

// IndexStorageArgs returns the command-line arguments that start
// cmd/minipg with the environment's index_storage (none when unset).
func IndexStorageArgs() []string {
	if v := IndexStorage(); v != "" {
		return []string{"-c", "index_storage=" + v}
	}
	return nil
}
