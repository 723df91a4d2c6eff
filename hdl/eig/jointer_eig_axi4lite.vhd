-- SPDX-License-Identifier: MIT
-- jointer_eig_axi4lite: passive AXI4-Lite tap, one candidate per transfer
-- (paper section 3: EIG interfacer, LIB_ADAPT; transaction level).
--
-- Every observed input it uses is registered once (all mon_* ports are
-- inputs; no combinational path from them to an output; the bus is never
-- driven). The outputs are combinational from those registers and the
-- queues below. "Latency n" = the candidate is sampled at the n-th rising
-- edge after the handshake that completes it.
--
-- Write (dir_g = dir_write_c): the k-th AW handshake pairs with the k-th W
-- handshake, in any order: AW first, W first or in the same cycle. AWADDR
-- and popcount(WSTRB) wait in two small queues (8 entries each, distributed
-- RAM: jointer_eig_aw_w_pair, shared with jointer_eig_axi4); a candidate leaves when both queues hold an entry: data = AWADDR
-- (zero-extended to ev_w_g bits; an address wider than ev_w_g keeps its low
-- ev_w_g bits), bytes = popcount(WSTRB);
-- latency 2 after the later of the two handshakes.
-- Bound: one side may lead the other by up to 8 handshakes not yet matched
-- (the contract asks for 4). Beyond that the surplus handshake is dropped (no
-- candidate) and the later pairs are off by one until reset; AXI4-Lite
-- masters and slaves rarely lead by more than 2.
--
-- Filters evaluated at the capture (write, ranges_g > 0): in-range bit k =
-- rng_low(k) <= AWADDR <= rng_high(k) (unsigned, the kept address bits),
-- computed from the registered AWADDR and queued with it, so that it leaves
-- with its pair as cand_in_range(k): the DCAPFs' filters (filter_capture_c)
-- then add no comparison after the queue's read. The bounds are those in
-- effect when the AW is queued.
--
-- Read (dir_g = dir_read_c): a candidate per AR handshake (latency 1), data =
-- ARADDR (zero-extended to ev_w_g bits), bytes = data_w_g/8.
--
-- Reset (rst, synchronous): empties the queues; handshakes seen while rst is
-- high give no candidate (release it while no transfer is half done). The
-- ports of the other direction, WDATA, the B and R channels are ignored.
--
--   dir_g    : dir_write_c (0) or dir_read_c (1)
--   addr_w_g : AWADDR/ARADDR width (1..64)
--   data_w_g : WDATA/RDATA width (32 or 64)
--   ranges_g : write: DCAPF filters evaluated at the capture (0..8); read: 0
--   ev_w_g   : width of cand_data and of each rng_low/rng_high bound: 32, or
--              64 for an address of 33..64 bits (the generator sets it from
--              addr_w_g, so every address bit reaches the filters)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_axi4lite is
  generic (
    dir_g    : natural  := dir_write_c;
    addr_w_g : positive := 32;
    data_w_g : positive := 32;
    ranges_g : natural  := 0;
    ev_w_g   : positive := data_w_c);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    -- the observed bus (all inputs)
    mon_awaddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    mon_awprot  : in  std_logic_vector(2 downto 0);
    mon_awvalid : in  std_logic;
    mon_awready : in  std_logic;
    mon_wdata   : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_wstrb   : in  std_logic_vector(data_w_g / 8 - 1 downto 0);
    mon_wvalid  : in  std_logic;
    mon_wready  : in  std_logic;
    mon_bresp   : in  std_logic_vector(1 downto 0);
    mon_bvalid  : in  std_logic;
    mon_bready  : in  std_logic;
    mon_araddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    mon_arprot  : in  std_logic_vector(2 downto 0);
    mon_arvalid : in  std_logic;
    mon_arready : in  std_logic;
    mon_rdata   : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_rresp   : in  std_logic_vector(1 downto 0);
    mon_rvalid  : in  std_logic;
    mon_rready  : in  std_logic;
    -- filter bounds of the capture-time ranges (ranges_g; ev_w_g bits each)
    rng_low     : in  std_logic_vector(ev_w_g * maximum(ranges_g, 1) - 1 downto 0) := (others => '0');
    rng_high    : in  std_logic_vector(ev_w_g * maximum(ranges_g, 1) - 1 downto 0) := (others => '1');
    -- candidate
    cand_in_range : out std_logic_vector(maximum(ranges_g, 1) - 1 downto 0);
    cand_valid  : out std_logic_vector(0 downto 0);
    cand_data   : out std_logic_vector(ev_w_g - 1 downto 0);
    cand_bytes  : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_axi4lite;

architecture rtl of jointer_eig_axi4lite is
  constant strb_w_c : positive := data_w_g / 8;
  constant keep_w_c : positive := minimum(addr_w_g, ev_w_g);    -- address bits kept
  constant pc_w_c   : positive := clog2(strb_w_c + 1);          -- popcount(WSTRB) bits
  constant depth_c  : positive := 8;                            -- per queue
begin

  assert dir_g = dir_write_c or dir_g = dir_read_c
    report "jointer_eig_axi4lite: dir_g must be dir_write_c or dir_read_c" severity failure;
  assert addr_w_g <= 64
    report "jointer_eig_axi4lite: addr_w_g must be 1..64" severity failure;
  assert data_w_g = 32 or data_w_g = 64
    report "jointer_eig_axi4lite: data_w_g must be 32 or 64" severity failure;
  assert ranges_g <= 8 and (ranges_g = 0 or dir_g = dir_write_c)
    report "jointer_eig_axi4lite: ranges_g (0..8) is for the write tap" severity failure;

  ---------------------------------------------------------------------------
  -- Write: pair the k-th AW with the k-th W
  ---------------------------------------------------------------------------
  g_write : if dir_g = dir_write_c generate
    signal aw_hs_r  : std_logic;                   -- inputs, registered once
    signal addr_r   : std_logic_vector(keep_w_c - 1 downto 0);
    signal w_hs_r   : std_logic;
    signal wstrb_r  : std_logic_vector(strb_w_c - 1 downto 0);
    signal w_bytes  : std_logic_vector(pc_w_c - 1 downto 0);    -- popcount(WSTRB)
    signal addr     : std_logic_vector(keep_w_c - 1 downto 0);  -- the pair's AWADDR
    signal nbytes   : std_logic_vector(pc_w_c - 1 downto 0);    -- ... and popcount(WSTRB)
    constant ent_w_c : positive := keep_w_c + ranges_g;         -- AW entry: address, in-range bits
    signal aw_ent   : std_logic_vector(ent_w_c - 1 downto 0);
    signal aw_head  : std_logic_vector(ent_w_c - 1 downto 0);
    signal addr_ev  : std_logic_vector(ev_w_g - 1 downto 0);
  begin
    w_bytes <= std_logic_vector(popcount(wstrb_r));
    addr_ev <= std_logic_vector(resize(unsigned(addr_r), ev_w_g));
    aw_ent(keep_w_c - 1 downto 0) <= addr_r;

    g_rng : for k in 0 to ranges_g - 1 generate
      u_filter : entity work.jointer_dcapf_filter
        generic map (ev_w_g => ev_w_g, width_g => keep_w_c)
        port map (data => addr_ev, low => rng_low(ev_w_g * (k + 1) - 1 downto ev_w_g * k),
                  high => rng_high(ev_w_g * (k + 1) - 1 downto ev_w_g * k), in_range => aw_ent(keep_w_c + k));
    end generate;

    u_pair : entity work.jointer_eig_aw_w_pair
      generic map (
        aw_w_g     => ent_w_c,
        w_w_g      => pc_w_c,
        aw_depth_g => depth_c,
        w_depth_g  => depth_c)
      port map (
        clk       => clk,
        rst       => rst,
        aw_push   => aw_hs_r,
        aw_in     => aw_ent,
        w_push    => w_hs_r,
        w_in      => w_bytes,
        aw_pop_en => '1',
        fire      => cand_valid(0),
        aw_head   => aw_head,
        w_head    => nbytes);

    addr <= aw_head(keep_w_c - 1 downto 0);
    g_in_range : if ranges_g > 0 generate
      cand_in_range <= aw_head(ent_w_c - 1 downto keep_w_c);
    end generate;
    g_no_in_range : if ranges_g = 0 generate
      cand_in_range <= (others => '1');
    end generate;

    cand_data  <= std_logic_vector(resize(unsigned(addr), ev_w_g));
    cand_bytes <= std_logic_vector(resize(unsigned(nbytes), inc_w_c));

    process (clk)
    begin
      if rising_edge(clk) then
        aw_hs_r <= mon_awvalid and mon_awready;
        addr_r  <= mon_awaddr(keep_w_c - 1 downto 0);
        w_hs_r  <= mon_wvalid and mon_wready;
        wstrb_r <= mon_wstrb;
        if rst = '1' then
          aw_hs_r <= '0';
          w_hs_r  <= '0';
        end if;
      end if;
    end process;
  end generate g_write;

  ---------------------------------------------------------------------------
  -- Read: one candidate per AR handshake
  ---------------------------------------------------------------------------
  g_read : if dir_g = dir_read_c generate
    signal ar_hs_r : std_logic;                    -- inputs, registered once
    signal addr_r  : std_logic_vector(keep_w_c - 1 downto 0);
  begin
    process (clk)
    begin
      if rising_edge(clk) then
        ar_hs_r <= mon_arvalid and mon_arready;
        addr_r  <= mon_araddr(keep_w_c - 1 downto 0);
        if rst = '1' then
          ar_hs_r <= '0';
        end if;
      end if;
    end process;

    cand_in_range <= (others => '1');
    cand_valid(0) <= ar_hs_r;
    cand_data     <= std_logic_vector(resize(unsigned(addr_r), ev_w_g));
    cand_bytes    <= std_logic_vector(to_unsigned(strb_w_c, inc_w_c));
  end generate g_read;

end architecture rtl;
