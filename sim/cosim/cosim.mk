# sim/cosim/: co-simulation and the demo (targets added by the co-simulation work).
