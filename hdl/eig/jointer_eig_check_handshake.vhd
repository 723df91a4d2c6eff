-- SPDX-License-Identifier: MIT
-- jointer_eig_check_handshake: condition checker, combinational:
-- fire = valid and ready (a transfer on a valid/ready channel).
-- Paper block: EIG condition checker. No generics.

library ieee;
use ieee.std_logic_1164.all;

entity jointer_eig_check_handshake is
  port (
    valid : in  std_logic;
    ready : in  std_logic;
    fire  : out std_logic);
end entity jointer_eig_check_handshake;

architecture rtl of jointer_eig_check_handshake is
begin

  fire <= valid and ready;

end architecture rtl;
