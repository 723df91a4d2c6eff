-- SPDX-License-Identifier: MIT
-- jointer_collect_lmic_port: the request pipeline of an LMIC (the target side
-- of the register port, doc/internals/collect.md). One 32-bit held word
-- serves both directions; only a trace RAM word has a register of its own:
-- - rp_req captures the word address (addr_r) and the direction. The cycle
--   after it, the register blocks see that address on rd_addr (from a
--   register: the read mux decodes clean flip-flop outputs, not the bus
--   address on its way through the DCI and the clock crossing).
-- - A read takes two cycles. In the first, rd pulses (the blocks' read side
--   effects; a large result window registers its word there, so its wide
--   mux ends at a flip-flop); in the second, rd_take pulses and held <= rd_data,
--   the OR of the blocks' contributions for rd_addr (the address still
--   holds), and ramw <= ram_data, the RAM's registered output; a read of a
--   trace RAM window (rd_ram) answers ramw until the next request is answered
--   (the block RAM's slow clock-to-output ends at a flip-flop with no logic
--   but the RAM's own word select before it).
-- - A write: in that cycle held <= rp_wdata (still held by the master), and
--   the write is armed; nothing is written yet. rp_commit (phase 2, after
--   the answer) pulses wr for one cycle with wr_addr (the captured address)
--   and wr_data (the held word) when a write is armed; a commit without an
--   armed write does nothing.
-- rp_ack pulses two cycles after rp_req for a write, three for a read; rp_rdata
-- (held, or ramw after a RAM read) and rp_err (unmapped word with strict_g)
-- stay until the next rp_req, which is what the DCI and the CDC bridge read. The pipeline is not reset:
-- an LMIC held in reset still answers (the bus never hangs on it), SLVERR
-- when rst was high at any edge from rp_req to the answer (the answer, once
-- given, stays as it is: the CDC bridge reads it later); `armed` is reset,
-- so a reset cancels a captured write (never answered OKAY).
-- Only the bit positions a writable register uses take rp_wdata (wmask_g), so
-- a held bit that no register reads and no register writes is a constant 0.
-- Generics:
--   addr_w_g : word-address bits of the LMIC window
--   strict_g : SLVERR on unmapped words
--   wmask_g  : the bits of a write some register takes (default all)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_lmic_port is
  generic (
    addr_w_g : positive := 6;
    strict_g : boolean := false;
    wmask_g  : std_logic_vector(31 downto 0) := (others => '1'));
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    -- register port
    rp_req    : in  std_logic;
    rp_commit : in  std_logic;
    rp_we     : in  std_logic;
    rp_addr   : in  std_logic_vector(addr_w_g - 1 downto 0);
    rp_wdata  : in  std_logic_vector(31 downto 0);
    rp_ack    : out std_logic;
    rp_rdata  : out std_logic_vector(31 downto 0);
    rp_err    : out std_logic;
    -- read side, towards the register blocks (at rd_addr, the captured address)
    rd        : out std_logic;                      -- a read at rd_addr in this cycle
    rd_take   : out std_logic;                      -- its second cycle: rd_data taken
    rd_addr   : out std_logic_vector(addr_w_g - 1 downto 0);  -- the captured word address
    rd_data   : in  std_logic_vector(31 downto 0);  -- OR of the blocks' contributions
    rd_hit    : in  std_logic;                      -- some block maps rd_addr
    rd_ram    : in  std_logic;                      -- rd_addr is in a trace RAM window
    ram_data  : in  std_logic_vector(31 downto 0);  -- that RAM's word, a cycle later
    -- write side (phase 2)
    wr        : out std_logic;
    wr_addr   : out std_logic_vector(addr_w_g - 1 downto 0);
    wr_data   : out std_logic_vector(31 downto 0));
end entity jointer_collect_lmic_port;

architecture rtl of jointer_collect_lmic_port is
  signal held_r  : std_logic_vector(31 downto 0);
  signal ramw_r  : std_logic_vector(31 downto 0);  -- the RAM word of a RAM read
  signal from_ram_r : std_logic := '0';           -- rp_rdata is ramw_r
  signal addr_r  : std_logic_vector(addr_w_g - 1 downto 0);
  signal armed_r : std_logic := '0';
  signal ack_r   : std_logic := '0';
  signal read_r  : std_logic := '0';  -- a read's second cycle: take the answer
  signal err_r   : std_logic;
  signal pend_r  : std_logic := '0';  -- the cycle after a request
  signal we_r    : std_logic;
  signal cut_r   : std_logic := '0';  -- rst since the last request
begin

  rd      <= pend_r and not we_r;
  rd_take <= read_r;
  rd_addr <= addr_r;

  process (clk)
  begin
    if rising_edge(clk) then
      ack_r  <= '0';
      pend_r <= '0';
      read_r <= pend_r and not we_r;
      if rp_req = '1' then
        addr_r  <= rp_addr;
        we_r    <= rp_we;
        armed_r <= rp_we;
        pend_r  <= '1';
        cut_r   <= '0';
      end if;
      -- the answer: a write's in the cycle after rp_req, a read's a cycle later
      -- (the held word loads under each one's own enable: a mux selected by
      -- we_r instead costs about 10 LUTs per port in yosys xc7)
      if (pend_r = '1' and we_r = '1') or read_r = '1' then
        err_r  <= (not (rd_hit or rd_ram) and to_sl(strict_g)) or cut_r or rst;
        ack_r  <= '1';
      end if;
      if pend_r = '1' and we_r = '1' then
        from_ram_r <= '0';
        held_r     <= rp_wdata and wmask_g;
      end if;
      if read_r = '1' then
        from_ram_r <= rd_ram;
        held_r     <= rd_data;
      end if;
      -- ramw loads when held may (the cycle after rp_req, and a read's second):
      -- an enable within the stages the clock-crossing check counts as the
      -- handshake (doc/internals/collect.md, "CDC rules"); the first word is
      -- not used
      if pend_r = '1' or read_r = '1' then
        ramw_r <= ram_data;
      end if;
      if rp_commit = '1' then
        armed_r <= '0';
      end if;
      if rst = '1' then
        armed_r <= '0';
        cut_r   <= '1';
      end if;
    end if;
  end process;

  rp_ack   <= ack_r;
  rp_rdata <= ramw_r when from_ram_r = '1' else held_r;
  rp_err   <= err_r;

  wr      <= rp_commit and armed_r;
  wr_addr <= addr_r;
  wr_data <= held_r;

end architecture rtl;
