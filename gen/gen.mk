# gen/: the generator (targets added by the generator work).
